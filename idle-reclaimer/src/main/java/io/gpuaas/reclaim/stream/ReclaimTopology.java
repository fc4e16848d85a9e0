package io.gpuaas.reclaim.stream;

import io.gpuaas.events.EventSerdes;
import io.gpuaas.events.Topics;
import io.gpuaas.events.notice.Notice;
import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.reclaim.ReclaimIntent;
import io.gpuaas.reclaim.metrics.ReclaimerMetrics;
import io.gpuaas.reclaim.model.OwnerLookup;
import io.gpuaas.reclaim.model.WorkloadLookup;
import io.gpuaas.reclaim.model.WorkloadSamples;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.state.Stores;

/**
 * {@code gpu-samples} (one scrape per record, keyed by node) → one record per workload with its samples of the scrape,
 * keyed by the workload → repartition by workload → per-workload windows in a changelogged store → {@code
 * reclaim-events} (what the stream found, keeps granted on {@code reclaim-keeps}'s answers), {@code reclaim-intents} (what the applier is to do) and {@code notices}
 * (ReclaimPending), all keyed by workload.
 */
public final class ReclaimTopology {

    public static final String STORE = "workload-windows";
    public static final String REPARTITION = "samples-by-workload";

    private ReclaimTopology() {}

    public static Topology build(
            String topicPrefix,
            OwnerLookup owners,
            WorkloadLookup workloads,
            ReclaimDecider decider,
            ReclaimerMetrics metrics) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.addStateStore(Stores.keyValueStoreBuilder(
                        Stores.inMemoryKeyValueStore(STORE), Serdes.String(), new WorkloadWindowsSerde())
                .withCachingEnabled());
        SampleAttributor attributor = new SampleAttributor(owners, metrics);
        // Keep answers join the samples before the repartition: keyed alike, they reach the workload's task in order
        // with its samples and are decided in the same transaction as its windows.
        KStream<String, WorkloadSamples> keeps = builder.stream(
                        Topics.RECLAIM_KEEPS.name(topicPrefix),
                        Consumed.with(Serdes.String(), EventSerdes.valueSerde(Topics.RECLAIM_KEEPS)))
                .filter((key, keep) -> keep != null, Named.as("keeps"))
                .mapValues(WorkloadSamples::keep, Named.as("keep-answers"));
        KStream<String, Decision> decisions = builder.stream(
                        Topics.GPU_SAMPLES.name(topicPrefix),
                        Consumed.with(Serdes.String(), EventSerdes.valueSerde(Topics.GPU_SAMPLES)))
                .process(() -> new AttributionProcessor(attributor), Named.as("attribute"))
                .merge(keeps, Named.as("samples-and-keeps"))
                .repartition(Repartitioned.with(Serdes.String(), new WorkloadSamplesSerde())
                        .withName(REPARTITION))
                .process(() -> new IdlenessProcessor(STORE, workloads, owners, decider, metrics), STORE);
        decisions
                .flatMapValues(ReclaimTopology::events, Named.as("events"))
                .to(
                        Topics.RECLAIM_EVENTS.name(topicPrefix),
                        Produced.with(Serdes.String(), Topics.RECLAIM_EVENTS.valueSerde()));
        decisions
                .flatMapValues(ReclaimTopology::intents, Named.as("intents"))
                .to(
                        Topics.RECLAIM_INTENTS.name(topicPrefix),
                        Produced.with(Serdes.String(), Topics.RECLAIM_INTENTS.valueSerde()));
        decisions
                .flatMapValues(ReclaimTopology::notices, Named.as("notices"))
                .to(Topics.NOTICES.name(topicPrefix), Produced.with(Serdes.String(), Topics.NOTICES.valueSerde()));
        return builder.build();
    }

    private static List<ReclaimEvent> events(Decision decision) {
        return switch (decision) {
            case Decision.Report report -> List.of(report.event());
            case Decision.Intent intent -> List.of();
            case Decision.Notify notify -> List.of();
        };
    }

    private static List<ReclaimIntent> intents(Decision decision) {
        return switch (decision) {
            case Decision.Report report -> List.of();
            case Decision.Intent intent -> List.of(intent.intent());
            case Decision.Notify notify -> List.of();
        };
    }

    private static List<Notice> notices(Decision decision) {
        return switch (decision) {
            case Decision.Notify notify -> List.of(notify.notice());
            case Decision.Report report -> List.of();
            case Decision.Intent intent -> List.of();
        };
    }
}
