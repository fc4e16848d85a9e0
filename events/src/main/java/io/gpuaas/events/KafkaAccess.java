package io.gpuaas.events;

import static io.gpuaas.events.KafkaPrincipal.BOOKING_SERVICE;
import static io.gpuaas.events.KafkaPrincipal.IDLE_RECLAIMER;
import static io.gpuaas.events.KafkaPrincipal.METRICS_GATEWAY;
import static io.gpuaas.events.KafkaPrincipal.QUOTA_PROJECTOR;
import static io.gpuaas.events.KafkaPrincipal.SRE;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * Who may do what on Kafka: for every topic of {@link Topics} which services write it and which read it, and from
 * that each principal's exact ACLs. The single source for the embedded broker of the tests and the local stack,
 * and for the Strimzi {@code KafkaUser}s of {@code deploy/kubernetes} (checked by a test there).
 *
 * <p>Topic grants are literal names, never wildcards. A Kafka Streams application additionally gets what Streams
 * needs under its application id: the consumer group of that name, its internal topics and its transactional ids
 * ({@code <application.id>-} prefixed, as Streams names them), and the consumer groups it runs beside Streams, named
 * {@code <application.id><suffix>} ({@link #consumerGroup}). Consumers that read without a group (topic replicas
 * assign partitions themselves) need no group grant.
 */
public final class KafkaAccess {

    /**
     * Suffix of the idle-reclaimer applier's consumer group: it reads {@code reclaim-intents} in the group
     * {@code <application.id>-applier} and commits their offsets in its own transactions, whose ids start with
     * {@code <application.id>-} like the Streams ones.
     */
    public static final String RECLAIM_APPLIER = "-applier";

    /**
     * Suffix of booking-service's webhook deliverer's consumer group: it reads {@code notices} in the group
     * {@code <application.id>-webhooks} and commits an offset once every delivery below it has ended.
     */
    public static final String WEBHOOK_DELIVERY = "-webhooks";

    /** Plain consumer groups of a Streams service, as suffixes of its application id. */
    private static final Map<KafkaPrincipal, List<String>> GROUP_SUFFIXES =
            Map.of(IDLE_RECLAIMER, List.of(RECLAIM_APPLIER), BOOKING_SERVICE, List.of(WEBHOOK_DELIVERY));

    private static final Map<TopicSpec<?, ?>, Set<KafkaPrincipal>> WRITERS = new LinkedHashMap<>();
    private static final Map<TopicSpec<?, ?>, Set<KafkaPrincipal>> READERS = new LinkedHashMap<>();

    static {
        topic(Topics.BOOKING_COMMANDS, EnumSet.of(BOOKING_SERVICE), EnumSet.of(BOOKING_SERVICE));
        // metrics-gateway's ledger reads bookings with why they were released (BookingReleased).
        topic(Topics.BOOKING_EVENTS, EnumSet.of(BOOKING_SERVICE), EnumSet.of(BOOKING_SERVICE, METRICS_GATEWAY));
        topic(
                Topics.BOOKINGS,
                EnumSet.of(BOOKING_SERVICE),
                EnumSet.of(BOOKING_SERVICE, QUOTA_PROJECTOR, METRICS_GATEWAY));
        // The waitlist: booking-service's decision engine writes it, its feed reads it back for the API.
        topic(Topics.WAITLIST, EnumSet.of(BOOKING_SERVICE), EnumSet.of(BOOKING_SERVICE));
        // Budgets: booking-service's budget stage writes each tenant's month; its feed reads them back for the API,
        // quota-projector reads them for over-budget work on borrowed capacity.
        topic(Topics.BUDGETS, EnumSet.of(BOOKING_SERVICE), EnumSet.of(BOOKING_SERVICE, QUOTA_PROJECTOR));
        // The budget stage's input, keyed by tenant: booking-service's edge and its own Streams application only.
        topic(Topics.BUDGET_COMMANDS, EnumSet.of(BOOKING_SERVICE), EnumSet.of(BOOKING_SERVICE));
        // booking-service's lifecycle reads Workloads to tell a no-show from a booking in use; metrics-gateway's
        // ledger reads them for the GPU-hours admitted under a booking.
        topic(
                Topics.KUEUE_WORKLOADS,
                EnumSet.of(QUOTA_PROJECTOR),
                EnumSet.of(QUOTA_PROJECTOR, BOOKING_SERVICE, METRICS_GATEWAY));
        topic(Topics.GPU_SAMPLES, EnumSet.of(METRICS_GATEWAY), EnumSet.of(IDLE_RECLAIMER, METRICS_GATEWAY));
        topic(Topics.QUOTA_STATE, EnumSet.of(QUOTA_PROJECTOR), EnumSet.of(METRICS_GATEWAY));
        // booking-service's dashboard shows the latest reclaim step of each workload under a booking.
        topic(Topics.RECLAIM_EVENTS, EnumSet.of(IDLE_RECLAIMER), EnumSet.of(METRICS_GATEWAY, BOOKING_SERVICE));
        topic(Topics.RECLAIM_INTENTS, EnumSet.of(IDLE_RECLAIMER), EnumSet.of(IDLE_RECLAIMER));
        // Granted keep answers: only booking-service's decision engine writes them (the pool's writer bounds them per
        // booking and UTC day first), idle-reclaimer's stream reads them. idle-reclaimer may not write its own input,
        // so no answer reaches it around the booking's bound.
        topic(Topics.RECLAIM_KEEPS, EnumSet.of(BOOKING_SERVICE), EnumSet.of(IDLE_RECLAIMER));
        topic(Topics.TENANT_UTILIZATION, EnumSet.of(METRICS_GATEWAY), EnumSet.noneOf(KafkaPrincipal.class));
        // The daily ledger, for SREs (who read every topic); metrics-gateway reads its own sealed days back.
        topic(Topics.USAGE_LEDGER, EnumSet.of(METRICS_GATEWAY), EnumSet.of(METRICS_GATEWAY));
        // Booking notices from booking-service's lifecycle, workload notices (ReclaimPending) from idle-reclaimer;
        // booking-service delivers them to tenants' webhooks, idle-reclaimer reads its own back to show them on the
        // workload objects (Event, gpuaas.io/reclaim-at), quota-projector the booking notices (Events and annotations
        // on the tenant's Workloads and queues); quota-projector also writes MigLayoutNotReady for flexible bookings
        // whose GPUs' layout is not ready; metrics-gateway's Lease holder writes BookingUnderused and reads its own
        // back (no group) so a restart or a new leader does not send one twice.
        topic(
                Topics.NOTICES,
                EnumSet.of(BOOKING_SERVICE, IDLE_RECLAIMER, QUOTA_PROJECTOR, METRICS_GATEWAY),
                EnumSet.of(BOOKING_SERVICE, IDLE_RECLAIMER, QUOTA_PROJECTOR, METRICS_GATEWAY));
        topic(Topics.WEBHOOKS, EnumSet.of(BOOKING_SERVICE), EnumSet.of(BOOKING_SERVICE));
        topic(
                Topics.DEAD_LETTER,
                EnumSet.of(BOOKING_SERVICE, QUOTA_PROJECTOR, IDLE_RECLAIMER, METRICS_GATEWAY),
                EnumSet.noneOf(KafkaPrincipal.class));
        for (TopicSpec<?, ?> spec : Topics.all()) {
            if (!WRITERS.containsKey(spec)) {
                throw new ExceptionInInitializerError("topic " + spec.baseName() + " has no access rule");
            }
        }
    }

    private KafkaAccess() {}

    private static void topic(TopicSpec<?, ?> spec, Set<KafkaPrincipal> writers, Set<KafkaPrincipal> readers) {
        WRITERS.put(spec, Set.copyOf(writers));
        Set<KafkaPrincipal> withSre = EnumSet.of(SRE);
        withSre.addAll(readers);
        READERS.put(spec, Set.copyOf(withSre));
    }

    /** The principals that may write {@code topic}. */
    public static Set<KafkaPrincipal> writers(TopicSpec<?, ?> topic) {
        return lookup(WRITERS, topic);
    }

    /** The principals that may read {@code topic}; the SRE principal reads every topic. */
    public static Set<KafkaPrincipal> readers(TopicSpec<?, ?> topic) {
        return lookup(READERS, topic);
    }

    private static Set<KafkaPrincipal> lookup(Map<TopicSpec<?, ?>, Set<KafkaPrincipal>> table, TopicSpec<?, ?> topic) {
        Set<KafkaPrincipal> principals = table.get(topic);
        if (principals == null) {
            throw new IllegalArgumentException("not a registered topic: " + topic.baseName());
        }
        return principals;
    }

    /** The consumer group {@code suffix} of a Streams service whose application id is {@code applicationId}. */
    public static String consumerGroup(String applicationId, String suffix) {
        return applicationId + suffix;
    }

    /** Every ACL of {@code principal} in a deployment with the default Streams application ids. */
    public static List<AclBinding> acls(KafkaPrincipal principal, String topicPrefix) {
        return acls(principal, topicPrefix, principal.streamsApplicationId());
    }

    /**
     * Every ACL of {@code principal}: write (and describe) on the topics it writes, read (and describe) on those it
     * reads, and for a Streams service what Streams needs under {@code streamsApplicationId}.
     *
     * @param topicPrefix          the deployment's topic prefix, e.g. {@code gpuaas.}
     * @param streamsApplicationId the configured Streams application id; ignored for a principal without one
     */
    public static List<AclBinding> acls(KafkaPrincipal principal, String topicPrefix, String streamsApplicationId) {
        Objects.requireNonNull(topicPrefix, "topicPrefix");
        List<AclBinding> acls = new ArrayList<>();
        for (TopicSpec<?, ?> spec : Topics.all()) {
            Set<AclOperation> ops = EnumSet.noneOf(AclOperation.class);
            if (WRITERS.get(spec).contains(principal)) {
                ops.add(AclOperation.WRITE);
            }
            if (READERS.get(spec).contains(principal)) {
                ops.add(AclOperation.READ);
            }
            if (!ops.isEmpty()) {
                ops.add(AclOperation.DESCRIBE);
                literal(acls, principal, ResourceType.TOPIC, spec.name(topicPrefix), ops);
            }
        }
        if (principal == SRE) {
            add(
                    acls,
                    principal,
                    new ResourcePattern(ResourceType.GROUP, KafkaPrincipal.sreGroupPrefix(), PatternType.PREFIXED),
                    EnumSet.of(AclOperation.READ, AclOperation.DESCRIBE));
        } else if (principal.streamsApplicationId() != null) {
            streams(acls, principal, Objects.requireNonNull(streamsApplicationId, "streamsApplicationId"));
        }
        return List.copyOf(acls);
    }

    /**
     * What a Kafka Streams application with exactly-once v2 needs beyond its input and output topics, and the plain
     * consumer groups the service runs beside it.
     */
    private static void streams(List<AclBinding> acls, KafkaPrincipal principal, String applicationId) {
        literal(
                acls,
                principal,
                ResourceType.GROUP,
                applicationId,
                EnumSet.of(AclOperation.READ, AclOperation.DESCRIBE));
        for (String suffix : GROUP_SUFFIXES.getOrDefault(principal, List.of())) {
            literal(
                    acls,
                    principal,
                    ResourceType.GROUP,
                    consumerGroup(applicationId, suffix),
                    EnumSet.of(AclOperation.READ, AclOperation.DESCRIBE));
        }
        String internal = applicationId + "-";
        add(
                acls,
                principal,
                new ResourcePattern(ResourceType.TOPIC, internal, PatternType.PREFIXED),
                EnumSet.of(
                        AclOperation.CREATE,
                        AclOperation.READ,
                        AclOperation.WRITE,
                        AclOperation.DELETE,
                        AclOperation.DESCRIBE,
                        AclOperation.DESCRIBE_CONFIGS));
        add(
                acls,
                principal,
                new ResourcePattern(ResourceType.TRANSACTIONAL_ID, internal, PatternType.PREFIXED),
                EnumSet.of(AclOperation.WRITE, AclOperation.DESCRIBE));
    }

    private static void literal(
            List<AclBinding> acls, KafkaPrincipal principal, ResourceType type, String name, Set<AclOperation> ops) {
        add(acls, principal, new ResourcePattern(type, name, PatternType.LITERAL), ops);
    }

    private static void add(
            List<AclBinding> acls, KafkaPrincipal principal, ResourcePattern resource, Set<AclOperation> ops) {
        for (AclOperation op : ops) {
            acls.add(new AclBinding(
                    resource, new AccessControlEntry(principal.principal(), "*", op, AclPermissionType.ALLOW)));
        }
    }
}
