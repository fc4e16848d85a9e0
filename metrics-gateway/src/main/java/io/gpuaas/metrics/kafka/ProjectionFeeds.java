package io.gpuaas.metrics.kafka;

import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.TopicSpec;
import io.gpuaas.events.Topics;
import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.events.quota.QueueState;
import io.gpuaas.kit.runtime.TopicReplica;
import io.gpuaas.kit.runtime.TopicReplica.RecordHandler;
import io.gpuaas.kit.runtime.TopicReplica.StartAt;
import io.gpuaas.metrics.StartOrder;
import io.gpuaas.metrics.config.ProjectionSettings;
import io.gpuaas.metrics.ledger.LedgerInputs;
import io.gpuaas.metrics.ledger.PublishedDays;
import io.gpuaas.metrics.ledger.UnderuseSent;
import io.gpuaas.metrics.projection.BookedUnits;
import io.gpuaas.metrics.projection.QueueDepth;
import io.gpuaas.metrics.projection.ReclaimState;
import io.gpuaas.metrics.projection.TenantUsage;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.Consumer;

/**
 * The gateway's two topic replicas (service-kit {@link TopicReplica}: every partition, no consumer group, since
 * every gateway instance serves every queue, booking and workload):
 * <ul>
 *   <li>{@value #STATE_FEED}: {@code quota-state} and {@code bookings} (compacted) and {@code reclaim-events}, all
 *       from the beginning, into QueueDepth, BookedUnits and ReclaimState;</li>
 *   <li>{@value #SAMPLE_FEED}: {@code gpu-samples} from the end (only the present matters for gauges; the end is
 *       the one at assignment, before readiness), into TenantUsage.</li>
 *   <li>{@value #LEDGER_FEED}: {@code booking-events}, {@code kueue-workloads}, {@code reclaim-events} and
 *       {@code gpu-samples}, all from the beginning, into the ledger's {@link LedgerInputs} (a rebuild is a replay),
 *       and {@code usage-ledger} into {@link PublishedDays} (the sealed days).</li>
 * </ul>
 * Separate replicas rather than one, so that thousands of samples a second never delay a queue state on its way to
 * KEDA, and a projection retrying one record holds up only its own feed.
 */
public final class ProjectionFeeds {

    public static final String STATE_FEED = "state-feed";
    public static final String SAMPLE_FEED = "sample-feed";
    public static final String LEDGER_FEED = "ledger-feed";
    /** The dead-letter group of the ledger feed. */
    public static final String LEDGER_GROUP = "metrics-gateway-ledger";

    private final Function<String, Consumer<byte[], byte[]>> consumers;
    private final String prefix;
    private final DeadLetterPublisher deadLetters;
    private final DeadLetterPublisher ledgerDeadLetters;
    private final ProjectionSettings settings;
    private final ProjectionHook hook;

    /**
     * @param consumers         a new byte-array consumer without a group, given its client id
     * @param deadLetters       the projections' dead letters (group {@code metrics-gateway})
     * @param ledgerDeadLetters the ledger feed's (group {@value #LEDGER_GROUP}): a bad record on a topic both read
     *                          is dead-lettered by each, and the group header tells which
     * @param hook              called before every record is applied; null for none (production)
     */
    public ProjectionFeeds(
            Function<String, Consumer<byte[], byte[]>> consumers,
            String prefix,
            DeadLetterPublisher deadLetters,
            DeadLetterPublisher ledgerDeadLetters,
            ProjectionSettings settings,
            ProjectionHook hook) {
        this.consumers = consumers;
        this.prefix = prefix;
        this.deadLetters = deadLetters;
        this.ledgerDeadLetters = ledgerDeadLetters;
        this.settings = settings;
        this.hook = hook;
    }

    public TopicReplica stateFeed(QueueDepth queues, BookedUnits bookings, ReclaimState reclaims) {
        return builder(STATE_FEED)
                .follow(
                        Topics.QUOTA_STATE,
                        StartAt.BEGINNING,
                        hooked(
                                Topics.QUOTA_STATE,
                                (key, state) -> queues.apply(
                                        key,
                                        switch (state) {
                                            case null -> null;
                                            case QueueState queue -> queue;
                                        })))
                .follow(Topics.BOOKINGS, StartAt.BEGINNING, hooked(Topics.BOOKINGS, bookings::apply))
                // Not compacted: a null there is dead-lettered by the replica and never reaches the projection.
                .follow(
                        Topics.RECLAIM_EVENTS,
                        StartAt.BEGINNING,
                        hooked(Topics.RECLAIM_EVENTS, (key, event) -> reclaims.apply(event)))
                .build();
    }

    public TopicReplica sampleFeed(TenantUsage usage) {
        return builder(SAMPLE_FEED)
                .follow(Topics.GPU_SAMPLES, StartAt.END, hooked(Topics.GPU_SAMPLES, (key, value) -> {
                    switch (value) {
                        case GpuScrape scrape -> usage.apply(scrape);
                    }
                }))
                .build();
    }

    /** Everything the ledger is built from, from the beginning, so a fresh instance rebuilds the same ledger. */
    public TopicReplica ledgerFeed(LedgerInputs ledger, PublishedDays published, UnderuseSent underused) {
        return builder(LEDGER_FEED, ledgerDeadLetters)
                .follow(
                        Topics.BOOKING_EVENTS,
                        StartAt.BEGINNING,
                        hooked(Topics.BOOKING_EVENTS, (key, event) -> ledger.apply(event)))
                .follow(Topics.KUEUE_WORKLOADS, StartAt.BEGINNING, hooked(Topics.KUEUE_WORKLOADS, ledger::apply))
                .follow(
                        Topics.RECLAIM_EVENTS,
                        StartAt.BEGINNING,
                        hooked(Topics.RECLAIM_EVENTS, (key, event) -> ledger.apply(event)))
                .follow(Topics.GPU_SAMPLES, StartAt.BEGINNING, hooked(Topics.GPU_SAMPLES, (key, value) -> {
                    switch (value) {
                        case GpuScrape scrape -> ledger.apply(scrape);
                    }
                }))
                // The daily records already published: sealed days are served from them.
                .follow(Topics.USAGE_LEDGER, StartAt.BEGINNING, hooked(Topics.USAGE_LEDGER, published::apply))
                // The BookingUnderused notices already sent, so a restart or a new leader sends none twice.
                .follow(
                        Topics.NOTICES,
                        StartAt.BEGINNING,
                        hooked(Topics.NOTICES, (key, notice) -> underused.apply(notice)))
                .build();
    }

    private TopicReplica.Builder builder(String name) {
        return builder(name, deadLetters);
    }

    private TopicReplica.Builder builder(String name, DeadLetterPublisher letters) {
        return TopicReplica.builder(name, () -> consumers.apply("metrics-gateway-" + name), prefix, letters)
                .backoff(settings.backoffInitial(), settings.backoffMax())
                .handlerRetries(settings.handlerAttempts())
                .probe(settings.probeInterval(), settings.probeTimeout())
                .startOrder(StartOrder.PROJECTIONS);
    }

    private <T> RecordHandler<T> hooked(TopicSpec<String, T> topic, RecordHandler<T> handler) {
        if (hook == null) {
            return handler;
        }
        return (key, value) -> {
            hook.beforeApply(topic, key);
            handler.apply(key, value);
        };
    }
}
