package io.gpuaas.testing.kafka;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.security.auth.SecurityProtocol;

/**
 * Broker settings for a one-node cluster that starts fast and stays small, with the security of {@link EmbeddedKafka}.
 * Public so that a broker run another way (a {@code kafka.Kafka} child JVM that can be killed and restarted) gets the
 * very same settings.
 */
public final class BrokerDefaults {

    private BrokerDefaults() {}

    /** One replica everywhere, few threads and small buffers, SASL listeners; {@code fixedPort} 0 adds no listener. */
    public static Map<String, String> singleNode(int fixedPort) {
        return singleNode(fixedPort, SecurityProtocol.SASL_PLAINTEXT);
    }

    /** As {@link #singleNode(int)} with the fixed-port listeners on {@code protocol}. */
    static Map<String, String> singleNode(int fixedPort, SecurityProtocol protocol) {
        Map<String, String> p = new LinkedHashMap<>();
        // One replica everywhere, or transactions and exactly_once_v2 streams never become ready.
        p.put("offsets.topic.replication.factor", "1");
        p.put("transaction.state.log.replication.factor", "1");
        p.put("transaction.state.log.min.isr", "1");
        p.put("share.coordinator.state.topic.replication.factor", "1");
        p.put("share.coordinator.state.topic.min.isr", "1");
        p.put("default.replication.factor", "1");
        p.put("min.insync.replicas", "1");
        // Fewer internal partitions: creating 50 offsets partitions costs seconds on 2 cores.
        p.put("offsets.topic.num.partitions", "5");
        p.put("transaction.state.log.num.partitions", "5");
        p.put("num.partitions", "1");
        p.put("auto.create.topics.enable", "true");
        // Groups form immediately instead of waiting 3 s for more members.
        p.put("group.initial.rebalance.delay.ms", "0");
        // Small threads, buffers and index preallocation: a test JVM shares 2 cores with others.
        p.put("num.network.threads", "2");
        p.put("num.io.threads", "2");
        p.put("background.threads", "2");
        p.put("num.recovery.threads.per.data.dir", "1");
        p.put("log.cleaner.threads", "1");
        p.put("log.cleaner.dedupe.buffer.size", "2097152");
        p.put("log.index.size.max.bytes", "1048576");
        p.put("log.segment.bytes", "67108864");
        p.put("socket.send.buffer.bytes", "131072");
        p.put("socket.receive.buffer.bytes", "131072");
        p.put("log.flush.interval.messages", Long.toString(Long.MAX_VALUE));
        // The test kit turns unstable features on; a stack that mirrors production keeps them off.
        p.put("unstable.api.versions.enable", "false");
        p.put("unstable.feature.versions.enable", "false");
        if (fixedPort > 0) {
            p.put(
                    "listeners",
                    "EXTERNAL://localhost:0,CONTROLLER://localhost:0," + EmbeddedKafka.FIXED_LISTENER + "://127.0.0.1:"
                            + fixedPort);
            p.put(
                    "listener.security.protocol.map",
                    "EXTERNAL:" + protocol + ",CONTROLLER:" + protocol + "," + EmbeddedKafka.FIXED_LISTENER + ":"
                            + protocol);
        }
        return p;
    }

    /**
     * SASL on every listener and the StandardAuthorizer with no access by default. The super user logs in with
     * PLAIN (declared here; it is also the broker's identity towards itself and its controller); every other user
     * with SCRAM-SHA-512, whose credentials live in the cluster metadata. Listener-scoped JAAS settings win over
     * the JVM-wide JAAS file the test kit writes for its own fixed users, so those users are never accepted.
     */
    static Map<String, String> security(int fixedPort, String adminPassword, List<String> plainUsers) {
        List<String> listeners = new ArrayList<>(List.of("external"));
        if (fixedPort > 0) {
            listeners.add(EmbeddedKafka.FIXED_LISTENER.toLowerCase(Locale.ROOT));
        }
        return security(adminPassword, listeners, plainUsers);
    }

    /**
     * The same security for a broker whose controller listener is named {@code CONTROLLER} and whose client (and
     * inter-broker) listeners are {@code clientListeners}: each takes PLAIN for {@link KafkaCredentials#ADMIN} and
     * SCRAM-SHA-512 for every other user. The caller maps each listener to {@code SASL_PLAINTEXT}.
     */
    public static Map<String, String> security(String adminPassword, List<String> clientListeners) {
        return security(adminPassword, clientListeners, List.of());
    }

    /** As {@link #security(String, List)}, the client listeners also taking {@code plainUsers} with PLAIN. */
    static Map<String, String> security(String adminPassword, List<String> clientListeners, List<String> plainUsers) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("sasl.enabled.mechanisms", "PLAIN," + KafkaCredentials.SCRAM);
        p.put("sasl.mechanism.inter.broker.protocol", "PLAIN");
        p.put("sasl.mechanism.controller.protocol", "PLAIN");
        p.put("listener.name.controller.sasl.enabled.mechanisms", "PLAIN");
        p.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
        p.put("allow.everyone.if.no.acl.found", "false");
        p.put("super.users", "User:" + KafkaCredentials.ADMIN);
        String plain = KafkaCredentials.serverPlainJaas(adminPassword, plainUsers);
        String scram = KafkaCredentials.serverScramJaas();
        p.put(
                "listener.name.controller.plain.sasl.jaas.config",
                KafkaCredentials.serverPlainJaas(adminPassword, List.of()));
        for (String name : clientListeners) {
            String listener = name.toLowerCase(Locale.ROOT);
            p.put("listener.name." + listener + ".plain.sasl.jaas.config", plain);
            p.put("listener.name." + listener + ".scram-sha-512.sasl.jaas.config", scram);
        }
        return p;
    }
}
