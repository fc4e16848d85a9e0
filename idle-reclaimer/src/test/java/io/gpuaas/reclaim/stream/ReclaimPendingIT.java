package io.gpuaas.reclaim.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gpuaas.events.notice.Notice;
import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.reclaim.ReclaimIntent;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.kube.kserve.v1beta1.InferenceService;
import io.gpuaas.reclaim.Fixtures;
import io.gpuaas.reclaim.ReclaimerHarness;
import io.gpuaas.reclaim.Samples;
import io.gpuaas.reclaim.Samples.Device;
import io.gpuaas.reclaim.config.ReclaimerSettings.Mode;
import io.gpuaas.reclaim.model.IdlePolicy;
import io.gpuaas.testing.k8s.KubernetesApi;
import io.gpuaas.testing.k8s.KubernetesApiExtension;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * ReclaimPending on the real broker: a 2 s window of 200 ms slots (10 slots), so the notice is due once 8 slots
 * passed idle. Samples carry their own times: nothing waits for a window to pass.
 */
@ExtendWith({KafkaBrokerExtension.class, KubernetesApiExtension.class})
class ReclaimPendingIT {

    static final Duration INTERVAL = Duration.ofMillis(200);
    static final IdlePolicy POLICY = new IdlePolicy(0.05, Duration.ofSeconds(2), INTERVAL, 0.9, Duration.ZERO, true);
    static final String NS = "team-p";

    static ReclaimerHarness harness;

    @BeforeAll
    static void start(KafkaBroker broker, KubernetesApi api) throws Exception {
        api.client().namespaces().resource(Fixtures.namespace(NS, "team-p")).create();
        harness = new ReclaimerHarness(broker, api, POLICY, Mode.DIRECT, false);
    }

    @AfterAll
    static void stop() throws Exception {
        harness.close();
    }

    private static Device createIsvc(String name) {
        String pod = name + "-predictor-0";
        harness.client
                .resources(InferenceService.class)
                .inNamespace(NS)
                .resource(Fixtures.inferenceService(NS, name, 1, Map.of()))
                .create();
        harness.client
                .pods()
                .inNamespace(NS)
                .resource(Fixtures.predictor(NS, name, pod, "nvidia.com/gpu", 1))
                .create();
        WorkloadRef ref = new WorkloadRef(NS, "InferenceService", name);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> harness.directory.find(ref).isPresent()
                        && harness.owners.ownerOf(NS, pod).isPresent());
        return new Device("node-p", "GPU-" + name, null, NS, pod);
    }

    private static void awaitSampleApplied(String key, Samples s, int slot) {
        await().atMost(Duration.ofSeconds(10)).until(() -> harness.windows(key)
                .map(w -> w.lastSampleMillis() == s.at(slot).toEpochMilli())
                .orElse(false));
    }

    @Test
    void shouldAnnounceTheReclaimBeforeItHappensWithTheTimeItHappensAt() {
        Device gpu = createIsvc("soon");
        String key = NS + "/InferenceService/soon";
        Samples s = Samples.startingSoon(INTERVAL);
        harness.send(s.one(gpu, 0, 0.7));
        harness.send(s.run(gpu, 1, 7, 0.0));
        awaitSampleApplied(key, s, 7);
        assertThat(harness.noticesOf(key)).as("7 of 10 slots idle: not yet").isEmpty();

        harness.send(s.one(gpu, 8, 0.0));

        await().atMost(Duration.ofSeconds(10))
                .until(() -> !harness.noticesOf(key).isEmpty());
        Notice.ReclaimPending notice = harness.noticesOf(key).getFirst();
        assertThat(notice.idleSince()).isEqualTo(s.at(1));
        assertThat(notice.reclaimAt()).isEqualTo(s.at(1).plus(POLICY.window()));
        assertThat(notice.tenant()).isEqualTo("team-p");
        assertThat(notice.time()).isEqualTo(s.at(8));
        assertThat(harness.eventsOf(key, ReclaimEvent.Reclaimed.class))
                .as("announced, not done")
                .isEmpty();

        harness.send(s.run(gpu, 9, 12, 0.0));

        await().atMost(Duration.ofSeconds(20)).until(() -> !harness.eventsOf(key, ReclaimEvent.Reclaimed.class)
                .isEmpty());
        ReclaimIntent.ReclaimRequested requested = harness.intentsOf(key).stream()
                .filter(ReclaimIntent.ReclaimRequested.class::isInstance)
                .map(ReclaimIntent.ReclaimRequested.class::cast)
                .findFirst()
                .orElseThrow();
        assertThat(requested.windowId()).isEqualTo(notice.windowId());
        assertThat(Duration.between(requested.windowClosedAt(), notice.reclaimAt())
                        .abs())
                .as("the projected time is that of the sample that closed the window, within one scrape")
                .isLessThanOrEqualTo(INTERVAL);
        assertThat(harness.noticesOf(key)).hasSize(1);
    }

    @Test
    void shouldWithdrawTheNoticeAndAnnounceTheNextWindowWhenTheWorkloadTurnsBusy() {
        Device gpu = createIsvc("wakes");
        String key = NS + "/InferenceService/wakes";
        Samples s = Samples.startingSoon(INTERVAL);
        harness.send(s.run(gpu, 0, 7, 0.0));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> !harness.noticesOf(key).isEmpty());
        String first = harness.noticesOf(key).getFirst().windowId();

        harness.send(s.one(gpu, 8, 0.9));
        harness.send(s.run(gpu, 9, 17, 0.0));

        await().atMost(Duration.ofSeconds(10))
                .until(() -> harness.noticesOf(key).size() == 2);
        assertThat(harness.intentsOf(key))
                .as("the first window ends without a reclaim: its announcement is withdrawn")
                .allMatch(ReclaimIntent.ReclaimWithdrawn.class::isInstance)
                .extracting(ReclaimIntent::windowId)
                .containsExactly(first);
        List<Notice.ReclaimPending> notices = harness.noticesOf(key);
        assertThat(notices.get(1).idleSince()).isEqualTo(s.at(9));
        assertThat(notices).extracting(Notice.ReclaimPending::noticeId).doesNotHaveDuplicates();
        assertThat(harness.eventsOf(key, ReclaimEvent.Reclaimed.class)).isEmpty();
    }

    /**
     * The notice and the flag that says it was sent commit in one exactly-once transaction with the input offsets:
     * a crashed instance's open transaction is aborted (read_committed readers never see its notice) and the next
     * owner re-processes from the committed offsets against the restored flag. So a restart from an empty state
     * directory, with the samples sent again, shows the same as a kill -9 would.
     */
    @Test
    void shouldSendOneNoticePerWindowAcrossRestartsWhenSamplesAreReplayed() throws Exception {
        Device gpu = createIsvc("again");
        String key = NS + "/InferenceService/again";
        Samples s = Samples.startingSoon(INTERVAL);
        harness.send(s.run(gpu, 0, 8, 0.0));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> !harness.noticesOf(key).isEmpty());

        harness.restart();
        harness.send(s.run(gpu, 0, 9, 0.0));
        awaitSampleApplied(key, s, 9);

        await().during(Duration.ofSeconds(1))
                .atMost(Duration.ofSeconds(5))
                .untilAsserted(() -> assertThat(harness.noticesOf(key)).hasSize(1));
    }
}
