package io.gpuaas.reclaim.keep;

import static io.gpuaas.events.KafkaPrincipal.BOOKING_SERVICE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gpuaas.events.KafkaAccess;
import io.gpuaas.events.Topics;
import io.gpuaas.events.reclaim.KeepRequested;
import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.reclaim.ReclaimIntent;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.kit.config.KafkaSettings;
import io.gpuaas.kit.kafka.KafkaClients;
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
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * "Keep it" on the real broker: the answers arrive on {@code reclaim-keeps} as booking-service's decision engine writes
 * them once the booking's bounds granted them, and the real stream decides them: a 10-minute window of 1-minute slots,
 * samples carrying their own times (an hour of them is sent in a moment), and each answer stamped with the time of the
 * sample it answers, so the keep counts on the samples' clock.
 */
@ExtendWith({KafkaBrokerExtension.class, KubernetesApiExtension.class})
class KeepAnswerIT {

    static final Duration INTERVAL = Duration.ofMinutes(1);
    static final IdlePolicy POLICY = new IdlePolicy(0.05, Duration.ofMinutes(10), INTERVAL, 0.9, Duration.ZERO, true);
    static final String NS = "team-k";

    static ReclaimerHarness harness;
    static Producer<String, KeepRequested> keeps;

    @BeforeAll
    static void start(KafkaBroker broker, KubernetesApi api) throws Exception {
        api.client().namespaces().resource(Fixtures.namespace(NS, "team-k")).create();
        harness = new ReclaimerHarness(broker, api, POLICY, Mode.DIRECT, false);
        // As booking-service's decision engine writes them: with its identity and exactly its ACLs.
        String prefix = harness.clients().settings().topicPrefix();
        KafkaClients bookingService = new KafkaClients(new KafkaSettings(
                broker.bootstrapServers(),
                prefix,
                broker.serviceCredentials(
                        BOOKING_SERVICE.userName(),
                        KafkaAccess.acls(BOOKING_SERVICE, prefix, broker.uniqueGroupId("booking")))));
        keeps = bookingService.producer("keep-answers-it", Topics.RECLAIM_KEEPS);
    }

    @AfterAll
    static void stop() throws Exception {
        keeps.close(Duration.ofSeconds(5));
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
        return new Device("node-k", "GPU-" + name, null, NS, pod);
    }

    /** A grid of whole minutes starting after the pods created now, so every sample counts. */
    private static Samples grid() {
        return new Samples(Instant.now().plus(Duration.ofMinutes(2)).truncatedTo(ChronoUnit.MINUTES), INTERVAL);
    }

    private static void awaitSampleApplied(String key, Samples s, int slot) {
        await().atMost(Duration.ofSeconds(30)).until(() -> harness.windows(key)
                .map(w -> w.lastSampleMillis() == s.at(slot).toEpochMilli())
                .orElse(false));
    }

    /** A granted answer as booking-service writes it, durable before this returns. */
    private static void keep(WorkloadRef ref, int hours, Instant at) throws Exception {
        KeepRequested answer =
                new KeepRequested(ref, "team-k", UUID.randomUUID().toString(), hours, "alice", at);
        keeps.send(new ProducerRecord<>(harness.clients().topic(Topics.RECLAIM_KEEPS), ref.key(), answer))
                .get(10, TimeUnit.SECONDS);
    }

    @Test
    void shouldReclaimOnlyOnceTheKeptHoursHavePassedWhenTheOwnerAnswersTheNotice() throws Exception {
        Device gpu = createIsvc("kept");
        WorkloadRef ref = new WorkloadRef(NS, "InferenceService", "kept");
        Samples s = grid();
        // Busy at 0, idle from 1: the notice at slot 8 (80 % of the window), the window itself closing at 11.
        harness.send(s.one(gpu, 0, 0.7));
        harness.send(s.run(gpu, 1, 8, 0.0));
        await().atMost(Duration.ofSeconds(20))
                .until(() -> !harness.noticesOf(ref.key()).isEmpty());
        assertThat(harness.noticesOf(ref.key()).getFirst().keep())
                .isEqualTo("/api/v1/workloads/team-k/InferenceService/kept/keep");

        keep(ref, 2, s.at(8));

        await().atMost(Duration.ofSeconds(20)).until(() -> !harness.eventsOf(ref.key(), ReclaimEvent.ReclaimKept.class)
                .isEmpty());
        ReclaimEvent.ReclaimKept kept =
                harness.eventsOf(ref.key(), ReclaimEvent.ReclaimKept.class).getFirst();
        assertThat(kept.keptUntil()).isEqualTo(s.at(128));
        assertThat(kept.hours()).isEqualTo(2);
        assertThat(kept.devices()).isEqualTo(1);
        assertThat(kept.requestedBy()).isEqualTo("alice");

        // Idle through the whole keep: the window closed idle long ago, yet nothing is reclaimed before it ends.
        harness.send(s.run(gpu, 9, 127, 0.0));
        awaitSampleApplied(ref.key(), s, 127);
        assertThat(harness.intentsOf(ref.key()))
                .as("no reclaim requested while kept")
                .noneMatch(ReclaimIntent.ReclaimRequested.class::isInstance);
        assertThat(harness.eventsOf(ref.key(), ReclaimEvent.Reclaimed.class)).isEmpty();

        harness.send(s.one(gpu, 128, 0.0));

        await().atMost(Duration.ofSeconds(30)).until(() -> !harness.eventsOf(ref.key(), ReclaimEvent.Reclaimed.class)
                .isEmpty());
        ReclaimIntent.ReclaimRequested requested = harness.intentsOf(ref.key()).stream()
                .filter(ReclaimIntent.ReclaimRequested.class::isInstance)
                .map(ReclaimIntent.ReclaimRequested.class::cast)
                .findFirst()
                .orElseThrow();
        assertThat(requested.windowClosedAt())
                .as("reclaimed by the first sample at the keep's end")
                .isEqualTo(s.at(128));
        assertThat(harness.eventsOf(ref.key(), ReclaimEvent.Reclaimed.class))
                .singleElement()
                .satisfies(r -> assertThat(r.dryRun()).isFalse());
    }

    @Test
    void shouldGrantNoMoreThanItsOwnCeilingPerWorkloadAndDayWhenAnswersExceedIt() throws Exception {
        Device gpu = createIsvc("greedy");
        WorkloadRef ref = new WorkloadRef(NS, "InferenceService", "greedy");
        Samples s = grid();
        // Busy at 0, idle from 1: the notice at slot 8 (80 % of the window), the window itself closing at 11.
        harness.send(s.one(gpu, 0, 0.7));
        harness.send(s.run(gpu, 1, 8, 0.0));
        await().atMost(Duration.ofSeconds(20))
                .until(() -> !harness.noticesOf(ref.key()).isEmpty());
        Instant at = s.at(8);

        keep(ref, 8, at);
        keep(ref, 8, at);
        keep(ref, 8, at);
        keep(ref, 1, at); // beyond the reclaimer's own 24 h per workload and day: nothing is granted
        keep(ref, 1, at.plus(Duration.ofDays(1))); // a new UTC day has its own ceiling

        await().atMost(Duration.ofSeconds(20))
                .until(() -> harness.eventsOf(ref.key(), ReclaimEvent.ReclaimKept.class)
                                .size()
                        == 4);
        assertThat(harness.eventsOf(ref.key(), ReclaimEvent.ReclaimKept.class))
                .extracting(ReclaimEvent.ReclaimKept::hoursToday, ReclaimEvent.ReclaimKept::hoursLeft)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(8, 16),
                        org.assertj.core.groups.Tuple.tuple(16, 8),
                        org.assertj.core.groups.Tuple.tuple(24, 0),
                        org.assertj.core.groups.Tuple.tuple(1, 23));
        assertThat(harness.eventsOf(ref.key(), ReclaimEvent.ReclaimKept.class)
                        .get(2)
                        .keptUntil())
                .isEqualTo(at.plus(Duration.ofHours(24)));
    }
}
