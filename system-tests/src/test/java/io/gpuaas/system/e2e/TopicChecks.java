package io.gpuaas.system.e2e;

import static io.gpuaas.system.e2e.ClusterView.FLAVOR;
import static io.gpuaas.system.e2e.ClusterView.RESOURCE;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpuaas.events.EventTypes;
import io.gpuaas.events.KafkaAccess;
import io.gpuaas.events.KafkaPrincipal;
import io.gpuaas.events.Topics;
import io.gpuaas.local.services.ServiceSpec;
import io.gpuaas.system.e2e.Kcat.KafkaRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * What each topic must hold after the scenario, read with kcat: the CloudEvents headers of every record
 * ({@code ce_specversion}, {@code ce_id}, {@code ce_type} registered for the topic, {@code ce_source} of the service
 * that owns the topic, {@code content-type}), record keys, and the key fields of the events the scenario caused.
 */
final class TopicChecks {

    /**
     * Topic to the service that writes it (its {@code ce_source} is {@code /gpuaas/<service>}), from the ACL table:
     * the one principal allowed to write the topic must be the one whose events are on it. The dead-letter topic,
     * written by every service with foreign bytes, is checked apart.
     */
    static final Map<String, String> WRITERS = Topics.all().stream()
            .filter(t -> KafkaAccess.writers(t).size() == 1)
            .collect(Collectors.toMap(
                    t -> t.name(Topics.DEFAULT_PREFIX),
                    t -> serviceOf(KafkaAccess.writers(t).iterator().next()),
                    (a, b) -> a,
                    LinkedHashMap::new));

    private static String serviceOf(KafkaPrincipal principal) {
        return ServiceSpec.ALL.stream()
                .filter(s -> s.principal() == principal)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no service logs in as " + principal))
                .name();
    }

    private TopicChecks() {}

    /** Every non-tombstone record is a binary-mode CloudEvent of a type registered for gpuaas, from its writer. */
    static void cloudEvents(String topic, List<KafkaRecord> records, String typePrefix) {
        String source = "/gpuaas/" + WRITERS.get(topic);
        records.stream().filter(r -> !r.tombstone()).forEach(r -> {
            assertThat(r.headers())
                    .as("%s record at %d/%d", topic, r.partition(), r.offset())
                    .containsEntry("ce_specversion", "1.0")
                    .containsEntry("ce_source", source)
                    .containsEntry("content-type", "application/json")
                    .containsKeys("ce_id", "ce_time");
            assertThat(r.type()).as("ce_type on %s", topic).startsWith(typePrefix);
            assertThat(EventTypes.classOf(r.type()))
                    .as("ce_type %s is registered", r.type())
                    .isPresent();
        });
        assertThat(records.stream()
                        .filter(r -> !r.tombstone())
                        .map(r -> r.header("ce_id"))
                        .distinct()
                        .count())
                .as("ce_id is unique on %s", topic)
                .isEqualTo(records.stream().filter(r -> !r.tombstone()).count());
    }

    /** Create, then the shortening change, keyed by pool so one writer decides per pool. */
    static void bookingCommands(List<KafkaRecord> records, String bookingId) {
        List<KafkaRecord> ours =
                of(records, r -> bookingId.equals(r.body().path("bookingId").asText()));
        assertThat(ours)
                .extracting(KafkaRecord::type)
                .containsExactly("io.gpuaas.booking.command.create.v1", "io.gpuaas.booking.command.change.v1");
        assertThat(ours).extracting(KafkaRecord::key).containsOnly(FLAVOR);
        JsonNode create = ours.getFirst().body();
        assertThat(create.path("quantity").asInt()).isEqualTo(2);
        assertThat(create.path("namespace").asText()).isEqualTo("team-a");
        assertThat(create.path("caller").path("tenant").asText()).isEqualTo("team-a");
    }

    /** Confirmed → activated at start → extended (shortened) → completed at the new end, keyed by booking id. */
    static void bookingEvents(List<KafkaRecord> records, String bookingId, Instant shortenedEnd) {
        List<KafkaRecord> ours = of(records, r -> bookingId.equals(r.key()));
        assertThat(ours)
                .extracting(KafkaRecord::type)
                .containsExactly(
                        "io.gpuaas.booking.confirmed.v1",
                        "io.gpuaas.booking.activated.v1",
                        "io.gpuaas.booking.extended.v1",
                        "io.gpuaas.booking.completed.v1");
        assertThat(ours)
                .extracting(r -> r.body().path("booking").path("state").asText())
                .containsExactly("CONFIRMED", "ACTIVE", "ACTIVE", "COMPLETED");
        assertThat(Instant.parse(ours.get(2).body().path("booking").path("end").asText()))
                .isEqualTo(shortenedEnd);
        // The lifecycle clock meets each boundary within a second (issue #3).
        Instant activated = Instant.parse(ours.get(1).body().path("time").asText());
        Instant start =
                Instant.parse(ours.get(1).body().path("booking").path("start").asText());
        assertThat(Duration.between(start, activated))
                .as("activation after start")
                .isBetween(Duration.ZERO, Duration.ofSeconds(1));
        Instant completed = Instant.parse(ours.get(3).body().path("time").asText());
        assertThat(Duration.between(shortenedEnd, completed))
                .as("completion after end")
                .isBetween(Duration.ZERO, Duration.ofSeconds(1));
    }

    /** The compacted state topic ends with the COMPLETED booking, versions rising. */
    static void bookings(List<KafkaRecord> records, String bookingId) {
        List<KafkaRecord> ours = of(records, r -> bookingId.equals(r.key()));
        assertThat(ours).isNotEmpty().allSatisfy(r -> assertThat(r.type()).isEqualTo("io.gpuaas.booking.state.v1"));
        assertThat(ours)
                .extracting(r -> r.body().path("version").asLong())
                .isSorted()
                .doesNotHaveDuplicates();
        assertThat(ours.getLast().body().path("state").asText()).isEqualTo("COMPLETED");
    }

    /** The RayCluster's Workload was admitted to the tenant's ClusterQueue on the booked flavor; the waiting one never. */
    static void kueueWorkloads(List<KafkaRecord> records, String trainWorkload, String waitingWorkload) {
        List<KafkaRecord> train = of(records, r -> ("team-a/" + trainWorkload).equals(r.key()));
        assertThat(train).as("WorkloadObserved of %s", trainWorkload).anySatisfy(r -> {
            JsonNode w = r.body();
            assertThat(r.type()).isEqualTo("io.gpuaas.kueue.workload.observed.v1");
            assertThat(w.path("transition").path("type").asText()).isEqualTo("Admitted");
            assertThat(w.path("transition").path("status").asText()).isEqualTo("True");
            assertThat(w.path("clusterQueue").asText()).isEqualTo(ClusterView.TENANT_QUEUE);
            assertThat(w.path("queueName").asText()).isEqualTo(ClusterView.LOCAL_QUEUE);
            assertThat(w.path("owner").path("kind").asText()).isEqualTo("RayCluster");
            assertThat(w.path("owner").path("name").asText()).isEqualTo("e2e-train");
            assertThat(w.findValues("flavors"))
                    .anySatisfy(f -> assertThat(f.path(RESOURCE).asText()).isEqualTo(FLAVOR));
        });
        List<KafkaRecord> waiting = of(records, r -> ("team-a/" + waitingWorkload).equals(r.key()));
        assertThat(waiting)
                .as("WorkloadObserved of %s", waitingWorkload)
                .isNotEmpty()
                .noneSatisfy(
                        r -> assertThat(r.body().path("transition").path("type").asText())
                                .isEqualTo("Admitted"));
    }

    /**
     * The workers' MIG devices were sampled busy (0.7) and then idle (0.0): one record per node and scrape, keyed by the
     * node, every device of the node inside it.
     */
    static void gpuSamples(List<KafkaRecord> records) {
        List<Map.Entry<KafkaRecord, JsonNode>> ours = new ArrayList<>();
        for (KafkaRecord r : records) {
            r.body().path("devices").forEach(d -> {
                if ("team-a".equals(d.path("namespace").asText())
                        && d.path("pod").asText().startsWith("e2e-train-gpu-workers-worker-")) {
                    ours.add(Map.entry(r, d));
                }
            });
        }
        assertThat(ours).isNotEmpty().allSatisfy(e -> {
            KafkaRecord r = e.getKey();
            JsonNode device = e.getValue();
            assertThat(r.type()).isEqualTo("io.gpuaas.gpu.scrape.v1");
            assertThat(r.key()).isEqualTo(r.body().path("node").asText()).startsWith("gpu-node-");
            assertThat(device.path("migProfile").asText()).isEqualTo("1g.18gb");
            assertThat(device.path("utilizationSource").asText()).isEqualTo("GR_ENGINE_ACTIVE");
        });
        assertThat(ours)
                .extracting(e -> e.getValue().path("utilization").asDouble())
                .contains(0.7, 0.0);
        assertThat(ours.stream()
                        .map(e -> e.getKey().key() + "/"
                                + e.getValue().path("uuid").asText() + "/"
                                + e.getValue().path("gpuInstanceId").asText())
                        .distinct()
                        .count())
                .as("devices sampled")
                .isGreaterThanOrEqualTo(2);
    }

    /** The tenant's queues were published with the booked quota and the queue depth, then tombstoned when deleted. */
    static void quotaState(List<KafkaRecord> records) {
        List<KafkaRecord> cq = of(records, r -> ("cq/" + ClusterView.TENANT_QUEUE).equals(r.key()));
        assertThat(cq).as("records of cq/gpuaas-team-a").anySatisfy(r -> {
            assertThat(r.type()).isEqualTo("io.gpuaas.quota.queue-state.v1");
            assertThat(r.body().path("kind").asText()).isEqualTo("CLUSTER_QUEUE");
            assertThat(r.body().path("tenant").asText()).isEqualTo("team-a");
            assertThat(r.body().path("cohort").asText()).isEqualTo(ClusterView.COHORT);
            assertThat(r.body().path("nominal").path(FLAVOR).path(RESOURCE).asInt())
                    .isEqualTo(2);
        });
        assertThat(cq.getLast().payload())
                .as("the deleted ClusterQueue's tombstone")
                .isNull();
        List<KafkaRecord> lq = of(records, r -> "lq/team-a/gpuaas".equals(r.key()));
        assertThat(lq).as("records of lq/team-a/gpuaas").anySatisfy(r -> {
            JsonNode q = r.body();
            assertThat(q.path("admittedWorkloads").asInt()).isEqualTo(1);
            assertThat(q.path("pendingActive").asInt()
                            + q.path("pendingInadmissible").asInt())
                    .isEqualTo(1);
            assertThat(q.path("pendingDemand").path(RESOURCE).asInt()).isEqualTo(15);
        });
        assertThat(lq.getLast().payload())
                .as("the deleted LocalQueue's tombstone")
                .isNull();
    }

    /** Idle detected after the whole window, workers reclaimed with their previous counts, resumed by the tenant. */
    static void reclaimEvents(List<KafkaRecord> records) {
        List<KafkaRecord> ours = of(records, r -> "team-a/RayCluster/e2e-train".equals(r.key()));
        assertThat(ours)
                .extracting(KafkaRecord::type)
                .as("no reclaim failed or was skipped")
                .containsExactly(
                        "io.gpuaas.reclaim.idle-detected.v1",
                        "io.gpuaas.reclaim.reclaimed.v1",
                        "io.gpuaas.reclaim.resumed.v1");
        JsonNode idle = ours.get(0).body();
        assertThat(idle.path("devices").asInt()).isEqualTo(2);
        assertThat(idle.path("windowSeconds").asLong()).isEqualTo(ScenarioTiming.IDLE_WINDOW.toSeconds());
        assertThat(idle.path("maxUtilization").asDouble()).isLessThanOrEqualTo(0.05);
        assertThat(idle.path("mode").asText()).isEqualTo("direct");
        assertThat(idle.path("tenant").asText()).isEqualTo("team-a");
        JsonNode reclaimed = ours.get(1).body();
        assertThat(reclaimed.path("gpusFreed").asInt()).isEqualTo(2);
        assertThat(reclaimed.path("dryRun").asBoolean()).isFalse();
        // The window is counted in sample slots: 20 one-second samples span 19 s from the first to the last.
        assertThat(reclaimed.path("idleSeconds").asLong())
                .isGreaterThanOrEqualTo(ScenarioTiming.IDLE_WINDOW
                        .minus(ScenarioTiming.SCRAPE_INTERVAL)
                        .toSeconds());
        assertThat(reclaimed.path("groups").get(0).path("group").asText()).isEqualTo("gpu-workers");
        assertThat(reclaimed.path("groups").get(0).path("previousReplicas").asInt())
                .isEqualTo(2);
        assertThat(reclaimed.path("groups").get(0).path("previousMinReplicas").asInt())
                .isEqualTo(1);
        assertThat(reclaimed.path("groups").get(0).path("replicas").asInt()).isZero();
        JsonNode resumed = ours.get(2).body();
        assertThat(resumed.path("groups").get(0).path("replicas").asInt()).isEqualTo(2);
        assertThat(resumed.path("requestedBy").asText()).isEqualTo("team-a-user");
    }

    /** Rollups of the configured window for team-a, with its booking and both busy and idle device-seconds. */
    static void tenantUtilization(List<KafkaRecord> records) {
        List<KafkaRecord> ours = of(records, r -> "team-a".equals(r.key()));
        assertThat(ours).as("rollups of team-a").isNotEmpty().allSatisfy(r -> {
            assertThat(r.type()).isEqualTo("io.gpuaas.tenant.utilization.v1");
            // Windows follow the rollup timer: back to back, each the configured length give or take its jitter.
            assertThat(Duration.between(
                            Instant.parse(r.body().path("windowStart").asText()),
                            Instant.parse(r.body().path("windowEnd").asText())))
                    .isBetween(
                            ScenarioTiming.ROLLUP_WINDOW.minusSeconds(1), ScenarioTiming.ROLLUP_WINDOW.plusSeconds(1));
        });
        for (int i = 1; i < ours.size(); i++) {
            assertThat(ours.get(i).body().path("windowStart").asText())
                    .as("rollup %d starts where %d ended", i, i - 1)
                    .isEqualTo(ours.get(i - 1).body().path("windowEnd").asText());
        }
        assertThat(ours).anySatisfy(r -> assertThat(
                        r.body().path("bookedUnits").path(FLAVOR).asInt())
                .isEqualTo(2));
        assertThat(ours)
                .anySatisfy(r ->
                        assertThat(r.body().path("busyGpuSeconds").asDouble()).isPositive());
        assertThat(ours)
                .anySatisfy(r ->
                        assertThat(r.body().path("idleGpuSeconds").asDouble()).isPositive());
    }

    private static List<KafkaRecord> of(List<KafkaRecord> records, Predicate<KafkaRecord> which) {
        return records.stream().filter(which).toList();
    }
}
