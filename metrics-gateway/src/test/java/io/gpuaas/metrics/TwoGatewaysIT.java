package io.gpuaas.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.client.Config;
import io.gpuaas.events.Topics;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.quota.QueueState;
import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.events.tenant.TenantUtilization;
import io.gpuaas.testing.k8s.KubernetesApi;
import io.gpuaas.testing.k8s.KubernetesApiExtension;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two gateway instances side by side on one broker and one API server, as two pods of the Deployment, scraping one
 * exporter: each reads every partition (no consumer group to split them), so both serve the same queues, bookings,
 * idleness and tenant use, and either one can answer KEDA alone; only the holder of the Lease scrapes and publishes
 * rollups, so nothing reaches Kafka twice, and when it stops the other takes over.
 */
@ExtendWith({KafkaBrokerExtension.class, KubernetesApiExtension.class})
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TwoGatewaysIT {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Duration LEASE = Duration.ofSeconds(3);
    private static final String KEDA = GatewayHarness.token("keda", List.of(), List.of("metrics"));
    private static final Pattern PUBLISHED = Pattern.compile("(?m)^gpuaas_gpu_samples_published_total (\\S+)$");

    private static final AtomicInteger exporterScrapes = new AtomicInteger();
    private static HttpServer exporter;
    private static final List<GatewayHarness> running = new ArrayList<>();

    @BeforeAll
    static void start(KafkaBroker broker, KubernetesApi kubernetes) throws Exception {
        System.setProperty(
                Config.KUBERNETES_KUBECONFIG_FILE,
                kubernetes
                        .writeKubeconfig(Files.createTempFile("kubeconfig", ".yaml"))
                        .toString());
        exporter = GatewayHarness.exporter(GatewayHarness.resource("/dcgm/dcgm-exporter-t4.prom"), exporterScrapes);
        GatewayHarness first = new GatewayHarness(broker, "/dcgm/dcgm-exporter-t4.prom", port -> replica());
        running.add(first);
        running.add(new GatewayHarness(broker, first.prefix, "/dcgm/dcgm-exporter-t4.prom", port -> replica()));
        running.forEach(GatewayHarness::awaitReady);
    }

    /** The same configuration for every replica, as one Deployment gives its pods: one exporter, one Lease. */
    private static Map<String, Object> replica() {
        Map<String, Object> props = new HashMap<>();
        props.put("gpuaas.metrics-gateway.usage.namespace-tenants.team-t", "team-t");
        props.put("gpuaas.metrics-gateway.usage.rollup-window", "2s");
        props.put("gpuaas.metrics-gateway.kubernetes.enabled", true);
        props.put("gpuaas.metrics-gateway.scrape.discovery", false);
        props.put(
                "gpuaas.metrics-gateway.scrape.targets",
                "http://127.0.0.1:" + exporter.getAddress().getPort() + "/metrics");
        props.put("gpuaas.leader-election.lease-name", "two-gateways");
        props.put("gpuaas.leader-election.lease-duration", LEASE.toMillis() + "ms");
        props.put("gpuaas.leader-election.renew-deadline", "2s");
        props.put("gpuaas.leader-election.retry-period", "500ms");
        return props;
    }

    @AfterAll
    static void stop() {
        running.reversed().forEach(GatewayHarness::close);
        if (exporter != null) {
            exporter.stop(0);
        }
        System.clearProperty(Config.KUBERNETES_KUBECONFIG_FILE);
    }

    @Test
    @Order(1)
    void shouldServeTheSameQueuesBookingsIdlenessAndTenantUseFromBothInstances() {
        GatewayHarness first = running.getFirst();
        Instant now = Instant.now();
        first.send(Topics.QUOTA_STATE, "lq/team-t/gpuaas", localQueue("gpuaas", 6));
        first.send(Topics.BOOKINGS, "bk-1", booking("bk-1", now));
        WorkloadRef ref = new WorkloadRef("team-t", "InferenceService", "chat");
        first.send(
                Topics.RECLAIM_EVENTS,
                ref.key(),
                new ReclaimEvent.IdleDetected(
                        ref, "team-t", 2, now.minusSeconds(900), 900, 0.05, 0.01, 1.0, "keda", now));
        first.send(Topics.GPU_SAMPLES, "n7", TestScrapes.attributed("n7", "GPU-t", "team-t", now, 0.7));

        for (GatewayHarness gateway : running) {
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(gateway.get("/api/v1/keda/queues/team-t/gpuaas", KEDA, null)
                                .body())
                        .contains("\"pendingWorkloads\":6", "\"known\":true");
                assertThat(gateway.get("/api/v1/keda/workloads/team-t/InferenceService/chat", KEDA, null)
                                .body())
                        .contains("\"idle\":1");
                assertThat(gateway.metrics())
                        .contains(
                                "gpuaas_tenant_booked_units{pool=\"h200\",tenant=\"team-t\"} 3.0",
                                "gpuaas_tenant_gpu_utilization_ratio{tenant=\"team-t\"} 0.7");
            });
        }
    }

    @Test
    @Order(2)
    void shouldServeEveryQueueWrittenBeforeTheMomentAnInstanceStartedLaterIsReady() throws Exception {
        GatewayHarness first = running.getFirst();
        first.send(Topics.QUOTA_STATE, "lq/team-t/earlier", localQueue("earlier", 5));
        await().atMost(WAIT).untilAsserted(() -> assertThat(running.get(1)
                        .get("/api/v1/keda/queues/team-t/earlier", KEDA, null)
                        .body())
                .contains("\"known\":true"));

        // A third pod of a rolling update: readiness waits until it has read the history, so it never answers
        // KEDA with "unknown" for a queue the others know. It campaigns too, and follows.
        try (GatewayHarness late =
                new GatewayHarness(first.broker, first.prefix, "/dcgm/dcgm-exporter-t4.prom", port -> replica())) {
            late.awaitReady();
            assertThat(late.get("/api/v1/keda/queues/team-t/earlier", KEDA, null)
                            .body())
                    .contains("\"pendingWorkloads\":5", "\"known\":true");
            assertThat(leading(late)).as("the late pod follows").isFalse();
        }
    }

    @Test
    @Order(3)
    void shouldScrapeAndPublishRollupsFromTheLeaseHolderOnlyWhenTwoReplicasRun() throws Exception {
        GatewayHarness leader = awaitOneLeader();
        GatewayHarness follower = other(leader);
        running.getFirst().send(Topics.BOOKINGS, "bk-2", booking("bk-2", Instant.now()));

        await().atMost(WAIT).until(() -> published(leader) >= 5);
        assertThat(published(follower)).as("samples the follower published").isZero();
        assertThat(follower.metrics()).as("the follower scrapes nothing").doesNotContain("gpuaas_scrape_up{");
        assertThat(follower.get("/health/readiness", null, null).statusCode())
                .as("the follower is ready")
                .isEqualTo(200);

        // Windows of 2 s: with two publishers, each boundary would close two overlapping windows of team-t.
        List<TenantUtilization> rollups = rollupsOf("team-t", Duration.ofSeconds(5));
        assertThat(rollups).hasSizeGreaterThanOrEqualTo(2);
        assertOneWindowAtATime(rollups);
    }

    @Test
    @Order(4)
    void shouldScrapeFromTheOtherReplicaWithinTheLeaseDurationWhenTheLeaderStops() throws Exception {
        GatewayHarness leader = awaitOneLeader();
        GatewayHarness survivor = other(leader);
        double before = published(survivor);

        running.remove(leader);
        leader.close();

        // The leader released the Lease on stop, so the survivor need not wait it out; the slack is for a busy CI.
        await().atMost(LEASE.plusSeconds(2)).until(() -> leading(survivor) && published(survivor) > before);
        int scrapes = exporterScrapes.get();
        await().atMost(WAIT).until(() -> exporterScrapes.get() > scrapes + 2);
        survivor.send(Topics.QUOTA_STATE, "lq/team-t/after", localQueue("after", 4));
        await().atMost(WAIT).untilAsserted(() -> assertThat(survivor.get("/api/v1/keda/queues/team-t/after", KEDA, null)
                        .body())
                .contains("\"pendingWorkloads\":4", "\"known\":true"));
        assertOneWindowAtATime(rollupsOf("team-t", Duration.ofSeconds(3)));
    }

    private static GatewayHarness awaitOneLeader() {
        await().atMost(WAIT)
                .until(() -> running.stream().filter(TwoGatewaysIT::leading).count() == 1);
        return running.stream().filter(TwoGatewaysIT::leading).findFirst().orElseThrow();
    }

    private static GatewayHarness other(GatewayHarness gateway) {
        return running.stream().filter(g -> g != gateway).findFirst().orElseThrow();
    }

    private static boolean leading(GatewayHarness gateway) {
        return gateway.server
                .getApplicationContext()
                .getBean(MetricsGateway.class)
                .leading();
    }

    private static double published(GatewayHarness gateway) throws Exception {
        Matcher counter = PUBLISHED.matcher(gateway.metrics());
        return counter.find() ? Double.parseDouble(counter.group(1)) : 0;
    }

    /** Every rollup of {@code tenant} on gpuaas.tenant-utilization so far, by window start. */
    private static List<TenantUtilization> rollupsOf(String tenant, Duration reading) {
        GatewayHarness any = running.getFirst();
        return any
                .consumeAll(
                        Topics.TENANT_UTILIZATION.name(any.prefix),
                        Topics.TENANT_UTILIZATION.valueSerde().deserializer(),
                        reading)
                .stream()
                .map(r -> r.value() instanceof TenantUtilization u ? u : null)
                .filter(u -> u != null && u.tenant().equals(tenant))
                .sorted(Comparator.comparing(TenantUtilization::windowStart))
                .toList();
    }

    /** Each window starts where or after the one before it ended: one publisher at a time. */
    private static void assertOneWindowAtATime(List<TenantUtilization> rollups) {
        for (int i = 1; i < rollups.size(); i++) {
            assertThat(rollups.get(i).windowStart())
                    .as("window %d of %s", i, rollups)
                    .isAfterOrEqualTo(rollups.get(i - 1).windowEnd());
        }
    }

    private static Booking booking(String id, Instant now) {
        return new Booking(
                id,
                "team-t",
                "team-t",
                "h200",
                "h200",
                "nvidia.com/gpu",
                3,
                now.minusSeconds(60),
                now.plusSeconds(3600),
                null,
                BookingState.ACTIVE,
                "alice",
                now,
                now,
                1);
    }

    private static QueueState localQueue(String name, int pending) {
        return QueueStates.localQueue("team-t", name, pending);
    }
}
