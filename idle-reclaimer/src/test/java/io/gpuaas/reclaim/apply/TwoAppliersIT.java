package io.gpuaas.reclaim.apply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.reclaim.ReclaimIntent;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.kube.kserve.v1beta1.InferenceService;
import io.gpuaas.reclaim.Fixtures;
import io.gpuaas.reclaim.ReclaimerHarness;
import io.gpuaas.reclaim.ScaleWrites;
import io.gpuaas.reclaim.config.ReclaimerSettings.Mode;
import io.gpuaas.reclaim.k8s.KubeResources;
import io.gpuaas.reclaim.k8s.ReclaimedState;
import io.gpuaas.reclaim.model.IdlePolicy;
import io.gpuaas.testing.k8s.KubernetesApi;
import io.gpuaas.testing.k8s.KubernetesApiExtension;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two appliers in one group, as two replicas run them: they share the partitions of {@code reclaim-intents}, the
 * second joins while the first is in the middle of slow updates (a rebalance takes partitions away mid-apply), and
 * still every intent is applied once and has one outcome.
 */
@ExtendWith({KafkaBrokerExtension.class, KubernetesApiExtension.class})
class TwoAppliersIT {

    static final IdlePolicy POLICY =
            new IdlePolicy(0.05, Duration.ofSeconds(2), Duration.ofMillis(200), 0.9, Duration.ZERO, true);
    static final String NS = "team-pair";
    static final int WORKLOADS = 12;

    static ReclaimerHarness harness;
    static KubernetesApi api;

    @BeforeAll
    static void start(KafkaBroker broker, KubernetesApi kubernetes) throws Exception {
        api = kubernetes;
        api.client().namespaces().resource(Fixtures.namespace(NS, "team-pair")).create();
        harness = new ReclaimerHarness(broker, api, POLICY, Mode.DIRECT, false);
    }

    @AfterAll
    static void stop() throws Exception {
        api.clearDelays();
        harness.close();
    }

    private static WorkloadRef ref(int i) {
        return new WorkloadRef(NS, "InferenceService", "pair-" + i);
    }

    private static ReclaimIntent.ReclaimRequested request(int i) {
        Instant closed = Instant.now();
        return new ReclaimIntent.ReclaimRequested(
                ref(i),
                ref(i).key() + "@" + closed.minusSeconds(2),
                "team-pair",
                List.of("predictor"),
                1,
                2,
                false,
                closed,
                closed);
    }

    @Test
    void shouldApplyEveryIntentOnceWhenTwoAppliersShareThem() throws Exception {
        for (int i = 0; i < WORKLOADS; i++) {
            harness.client
                    .resources(InferenceService.class)
                    .inNamespace(NS)
                    .resource(Fixtures.inferenceService(NS, ref(i).name(), 1, Map.of()))
                    .create();
        }
        List<ReclaimIntent.ReclaimRequested> intents =
                IntStream.range(0, WORKLOADS).mapToObj(TwoAppliersIT::request).toList();
        List<String> appliedBySecond = new CopyOnWriteArrayList<>();
        IntentApplier second = harness.newApplier((ref, groups, windowId, dry) -> {
            appliedBySecond.add(windowId);
            return harness.scaler.reclaim(ref, groups, windowId, dry);
        });
        try (ScaleWrites writes = ScaleWrites.watch(harness.client, InferenceService.class, NS)) {
            // Every answer takes a second: the second applier joins while the first has updates in flight.
            api.delayResponses("PUT", "/namespaces/" + NS + "/inferenceservices/", Duration.ofSeconds(1));
            harness.sendIntents(intents.toArray(ReclaimIntent[]::new));
            await().atMost(Duration.ofSeconds(20)).until(() -> !harness.appliedByFirst.isEmpty());
            second.start();

            await().atMost(Duration.ofSeconds(60)).until(() -> intents.stream()
                    .allMatch(r -> !harness.eventsOf(r.workload().key(), ReclaimEvent.Reclaimed.class)
                            .isEmpty()));
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(6)).untilAsserted(() -> assertThat(intents)
                    .allSatisfy(r -> assertThat(harness.eventsOf(r.workload().key()))
                            .as(r.workload().key())
                            .singleElement()
                            .isInstanceOf(ReclaimEvent.Reclaimed.class)));
            for (ReclaimIntent.ReclaimRequested r : intents) {
                var isvc = harness.client
                        .resources(InferenceService.class)
                        .inNamespace(NS)
                        .withName(r.workload().name())
                        .get();
                assertThat(ReclaimedState.parse(KubeResources.annotations(isvc).get(KubeResources.RECLAIMED_STATE))
                                .actionId())
                        .isEqualTo(r.windowId());
                assertThat(writes.of(r.windowId()))
                        .as("writes of " + r.windowId())
                        .isEqualTo(1);
            }
            assertThat(appliedBySecond)
                    .as("the second applier took over part of the intents")
                    .isNotEmpty();
        } finally {
            api.clearDelays();
            second.stop(Duration.ofSeconds(10));
        }
    }
}
