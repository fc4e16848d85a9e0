package io.gpuaas.events;

/**
 * A Kafka identity of gpuaas: one per service, and a read-only one for SREs. Each authenticates as its own user
 * (SCRAM-SHA-512 or mTLS in a cluster, SASL/PLAIN over loopback locally) and may do only what {@link KafkaAccess}
 * grants it. A command's {@code caller} is believed because only {@link #BOOKING_SERVICE} may write commands.
 */
public enum KafkaPrincipal {

    /** Writes booking commands, decides them (Kafka Streams), publishes booking events and state. */
    BOOKING_SERVICE("gpuaas-booking-service", "gpuaas-booking-decider"),
    /** Reads bookings, writes Kueue Workload events and queue state. */
    QUOTA_PROJECTOR("gpuaas-quota-projector", null),
    /**
     * Reads GPU samples and writes reclaim intents (Kafka Streams), applies the intents (a consumer group) and writes
     * reclaim events.
     */
    IDLE_RECLAIMER("gpuaas-idle-reclaimer", "gpuaas-idle-reclaimer"),
    /** Writes GPU samples and utilization rollups, reads what it projects into Prometheus series. */
    METRICS_GATEWAY("gpuaas-metrics-gateway", null),
    /** Reads every topic (kcat, an SRE's own consumers), writes none. */
    SRE("gpuaas-sre", null);

    private final String userName;
    private final String streamsApplicationId;

    KafkaPrincipal(String userName, String streamsApplicationId) {
        this.userName = userName;
        this.streamsApplicationId = streamsApplicationId;
    }

    /** The Kafka user name (the Strimzi {@code KafkaUser} name, the SASL user name). */
    public String userName() {
        return userName;
    }

    /** The principal as the broker's authorizer names it: {@code User:<userName>}. */
    public String principal() {
        return "User:" + userName;
    }

    /**
     * The default Kafka Streams {@code application.id} of this service (its consumer group, the prefix of its
     * internal topics and transactional ids), or null for a service without a Streams application.
     */
    public String streamsApplicationId() {
        return streamsApplicationId;
    }

    /** The consumer-group prefix an SRE's own consumers use: {@code gpuaas-sre-}. */
    public static String sreGroupPrefix() {
        return SRE.userName + "-";
    }
}
