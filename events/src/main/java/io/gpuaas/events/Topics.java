package io.gpuaas.events;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingCommand;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.WaitlistEntry;
import io.gpuaas.events.budget.BudgetCommand;
import io.gpuaas.events.budget.TenantBudget;
import io.gpuaas.events.gpu.GpuScrapeCodec;
import io.gpuaas.events.gpu.GpuScrapeEvent;
import io.gpuaas.events.notice.Notice;
import io.gpuaas.events.quota.QueueStateEvent;
import io.gpuaas.events.reclaim.KeepRequested;
import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.reclaim.ReclaimIntent;
import io.gpuaas.events.tenant.TenantUtilizationEvent;
import io.gpuaas.events.usage.UsageLedgerEvent;
import io.gpuaas.events.webhook.WebhookRegistration;
import io.gpuaas.events.workload.WorkloadEvent;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/**
 * The registry of every gpuaas topic: name, key and value serdes, partitions, cleanup and retention. Tests, the
 * local stack and the Kubernetes KafkaTopics are all derived from this one list.
 */
public final class Topics {

    /** The default topic name prefix. */
    public static final String DEFAULT_PREFIX = "gpuaas.";

    private static final Serde<String> KEY = Serdes.String();

    /** Create, cancel, change and release requests, keyed by pool id so one writer decides per pool. */
    public static final TopicSpec<String, BookingCommand> BOOKING_COMMANDS =
            events("booking-commands", BookingCommand.class, 12, false, Duration.ofDays(7));
    /** Every booking decision and window transition, keyed by booking id (a series' answer by series id); kept a year for audit and replay. */
    public static final TopicSpec<String, BookingEvent> BOOKING_EVENTS =
            events("booking-events", BookingEvent.class, 12, false, Duration.ofDays(365));
    /** Latest state per booking id, compacted; type {@code io.gpuaas.booking.state.v1}. */
    public static final TopicSpec<String, Booking> BOOKINGS = events("bookings", Booking.class, 12, true, null);
    /**
     * Latest state per waitlist entry (a create request waiting for room), compacted, keyed by entry id (the id of
     * the booking it may become); type {@code io.gpuaas.booking.waitlist-entry.v1}.
     */
    public static final TopicSpec<String, WaitlistEntry> WAITLIST =
            events("waitlist", WaitlistEntry.class, 12, true, null);
    /**
     * Each tenant's budget per UTC month and where it stands (booked, held, over budget), compacted, keyed by
     * {@code <tenant>/<yyyy-MM>}; type {@code io.gpuaas.budget.state.v1}.
     */
    public static final TopicSpec<String, TenantBudget> BUDGETS = events("budgets", TenantBudget.class, 12, true, null);
    /**
     * What booking-service's budget stage decides, keyed by tenant: budgets set by admins, create/change/series
     * requests on their way to {@link #BOOKING_COMMANDS}, and the booking events re-keyed by tenant.
     */
    public static final TopicSpec<String, BudgetCommand> BUDGET_COMMANDS =
            events("budget-commands", BudgetCommand.class, 12, false, Duration.ofDays(7));
    /** Kueue Workload condition transitions and deletions, keyed by {@code namespace/name}. */
    public static final TopicSpec<String, WorkloadEvent> KUEUE_WORKLOADS =
            events("kueue-workloads", WorkloadEvent.class, 12, false, Duration.ofDays(7));
    /**
     * One record per exporter scrape of one node (or remote-write batch of one node at one time), every device of it
     * inside, keyed by node. The busiest topic (10,000 devices at 1 Hz and more), so it has its own codec,
     * {@link GpuScrapeCodec}: the same headers and bytes as the generic serdes without Jackson.
     */
    public static final TopicSpec<String, GpuScrapeEvent> GPU_SAMPLES = new TopicSpec<>(
            "gpu-samples",
            String.class,
            KEY,
            GpuScrapeEvent.class,
            GpuScrapeCodec.serde(),
            24,
            false,
            Duration.ofHours(6));
    /** Latest state per Kueue queue, compacted, keyed by {@code cq/<name>} or {@code lq/<namespace>/<name>}. */
    public static final TopicSpec<String, QueueStateEvent> QUOTA_STATE =
            events("quota-state", QueueStateEvent.class, 6, true, null);
    /** Every idle-reclaimer step, keyed by {@code namespace/kind/name}. */
    public static final TopicSpec<String, ReclaimEvent> RECLAIM_EVENTS =
            events("reclaim-events", ReclaimEvent.class, 6, false, Duration.ofDays(30));
    /**
     * Reclaims the idle-reclaimer's stream decided and its applier carries out, keyed by {@code namespace/kind/name}.
     * A work queue between an exactly-once stream and the API server, not a record of what happened (that is
     * {@link #RECLAIM_EVENTS}); kept a week for audit and replay.
     */
    public static final TopicSpec<String, ReclaimIntent> RECLAIM_INTENTS =
            events("reclaim-intents", ReclaimIntent.class, 6, false, Duration.ofDays(7));
    /**
     * Teams' "keep it" answers to ReclaimPending notices, keyed by workload: idle-reclaimer's HTTP edge writes them,
     * its stream decides them with the workload's windows.
     */
    public static final TopicSpec<String, KeepRequested> RECLAIM_KEEPS =
            events("reclaim-keeps", KeepRequested.class, 6, false, Duration.ofDays(7));
    /** Per-tenant utilization rollups, keyed by tenant. */
    public static final TopicSpec<String, TenantUtilizationEvent> TENANT_UTILIZATION =
            events("tenant-utilization", TenantUtilizationEvent.class, 6, false, Duration.ofDays(30));
    /**
     * Each tenant's GPU-hours ledger per UTC day (booked, admitted, busy, idle, reclaimed, released per pool),
     * compacted, keyed by {@code <tenant>/<yyyy-mm-dd>}: the latest figures of a day replace the earlier ones.
     */
    public static final TopicSpec<String, UsageLedgerEvent> USAGE_LEDGER =
            events("usage-ledger", UsageLedgerEvent.class, 6, true, null);
    /**
     * Heads-ups to tenants, each emitted once: booking notices (BookingEndingSoon, NoShowWarning) from booking-service,
     * keyed by booking id; workload notices (ReclaimPending) from idle-reclaimer, keyed by {@code namespace/kind/name}. Read by whatever
     * delivers them (Kubernetes Events, webhooks) and by SREs; kept a week, as long as a delivery may lag.
     */
    public static final TopicSpec<String, Notice> NOTICES =
            events("notices", Notice.class, 6, false, Duration.ofDays(7));
    /**
     * Tenants' webhook endpoints, compacted, keyed by {@code <tenant>/<id>}; a tombstone deletes one. Every
     * booking-service replica reads it whole; the signing secret in it is encrypted ({@link WebhookRegistration}).
     */
    public static final TopicSpec<String, WebhookRegistration> WEBHOOKS =
            events("webhooks", WebhookRegistration.class, 3, true, null);
    /** Records that could not be processed: original key and bytes, the reason in {@code gpuaas_dlq_*} headers. */
    public static final TopicSpec<byte[], byte[]> DEAD_LETTER = new TopicSpec<>(
            "dead-letter",
            byte[].class,
            Serdes.ByteArray(),
            byte[].class,
            Serdes.ByteArray(),
            3,
            false,
            Duration.ofDays(30));

    private static final List<TopicSpec<?, ?>> ALL = List.of(
            BOOKING_COMMANDS,
            BOOKING_EVENTS,
            BOOKINGS,
            WAITLIST,
            BUDGETS,
            BUDGET_COMMANDS,
            KUEUE_WORKLOADS,
            GPU_SAMPLES,
            QUOTA_STATE,
            RECLAIM_EVENTS,
            RECLAIM_INTENTS,
            RECLAIM_KEEPS,
            TENANT_UTILIZATION,
            USAGE_LEDGER,
            NOTICES,
            WEBHOOKS,
            DEAD_LETTER);

    private static final Map<String, String> KEYS = Map.ofEntries(
            Map.entry("booking-commands", "pool id"),
            Map.entry("booking-events", "booking id (series id for a series' answer)"),
            Map.entry("bookings", "booking id"),
            Map.entry("waitlist", "waitlist entry id (the booking id it may become)"),
            Map.entry("budgets", "`<tenant>/<yyyy-MM>`"),
            Map.entry("budget-commands", "tenant"),
            Map.entry("kueue-workloads", "`namespace/name` of the Workload"),
            Map.entry("gpu-samples", "node (devices inside: `node/uuid[/gpuInstanceId]`)"),
            Map.entry("quota-state", "`cq/<clusterQueue>` or `lq/<namespace>/<localQueue>`"),
            Map.entry("reclaim-events", "`namespace/kind/name`"),
            Map.entry("reclaim-intents", "`namespace/kind/name`"),
            Map.entry("reclaim-keeps", "`namespace/kind/name`"),
            Map.entry("tenant-utilization", "tenant"),
            Map.entry("usage-ledger", "`<tenant>/<yyyy-mm-dd>` (UTC day)"),
            Map.entry("notices", "booking id, or `namespace/kind/name` of a workload"),
            Map.entry("webhooks", "`<tenant>/<id>` of the endpoint"),
            Map.entry("dead-letter", "the original record's key, unchanged"));

    private Topics() {}

    /** A topic of {@code type} events keyed by a string aggregate id, written and read with the CloudEvents serde. */
    private static <V> TopicSpec<String, V> events(
            String baseName, Class<V> type, int partitions, boolean compacted, Duration retention) {
        return new TopicSpec<>(
                baseName, String.class, KEY, type, EventSerdes.of(type), partitions, compacted, retention);
    }

    /** What the record key of {@code topic} is (its aggregate id), for documentation and tooling. */
    public static String keyDescription(TopicSpec<?, ?> topic) {
        String key = KEYS.get(topic.baseName());
        if (key == null) {
            throw new IllegalArgumentException("not a registered topic: " + topic.baseName());
        }
        return key;
    }

    /** Every topic of the contract. */
    public static List<TopicSpec<?, ?>> all() {
        return ALL;
    }
}
