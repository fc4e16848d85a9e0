package io.gpuaas.system.e2e;

import static io.gpuaas.system.e2e.ClusterView.FLAVOR;
import static io.gpuaas.system.e2e.ClusterView.LOCAL_QUEUE;
import static io.gpuaas.system.e2e.ClusterView.RESOURCE;
import static io.gpuaas.system.e2e.ClusterView.TENANT_QUEUE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpuaas.system.e2e.CalendarBrowser.BookingRow;
import io.gpuaas.system.e2e.JsonHttp.Answer;
import io.gpuaas.system.e2e.Kcat.KafkaRecord;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #8's end-to-end scenario on the local stack's parts, one step per test, in order: team-a books two MIG
 * slices over HTTP and sees the booking in the web calendar → at the start its ClusterQueue and LocalQueues appear
 * with that quota → its RayCluster is admitted by the Kueue stand-in → Prometheus reads the queue depth and the
 * tenant's utilization → the GPUs go idle and the workers are reclaimed while the reservation stays → resume restores
 * the exact replica counts → the booking ends and the quota drains → every topic holds the expected CloudEvents.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@ExtendWith(StopAfterFirstFailure.class)
class E2EScenarioIT {

    private static final String TRAIN = "e2e-train";
    private static final String WAITING = "e2e-waiting";
    private static final JsonHttp HTTP = new JsonHttp();
    private static final Instant STARTED = Instant.now();

    private static E2eStack stack;
    private static LoopbackPrometheus prometheus;
    private static ClusterView cluster;
    private static BookingClient bookings;
    private static final Scenario scenario = new Scenario();

    /** What the steps hand on to each other. */
    static final class Scenario {
        String bookingId;
        Instant bookingStart;
        Instant shortenedEnd;
        String trainWorkload;
        String waitingWorkload;
        final Map<String, Duration> figures = new LinkedHashMap<>();
    }

    @BeforeAll
    static void start() throws Exception {
        assumeTrue(
                Kcat.available() && LoopbackPrometheus.available() && CalendarBrowser.available(),
                "needs Debian's kcat, prometheus, chromium and chromium-driver (installed by .ci/run)");
        stack = E2eStack.start();
        scenario.figures.put("stack and services up", Duration.between(STARTED, Instant.now()));
        prometheus = LoopbackPrometheus.scraping(
                stack.hostPort("metrics-gateway"), stack.token("prometheus"), stack.targetDir());
        cluster = new ClusterView(stack.kube());
        bookings = new BookingClient(HTTP, stack.url("booking-service"), stack.token("team-a"));
    }

    @AfterAll
    static void stop() throws Exception {
        if (prometheus != null) {
            prometheus.close();
        }
        if (stack != null) {
            if (StopAfterFirstFailure.failedStep().isPresent()) {
                System.out.println("service logs at the failure:" + stack.logTails());
            }
            stack.close();
        }
        scenario.figures.put("whole scenario", Duration.between(STARTED, Instant.now()));
        scenario.figures.forEach((name, d) -> System.out.printf("e2e: %-40s %6.1f s%n", name, d.toMillis() / 1000.0));
    }

    @Test
    @Order(1)
    void shouldConfirmTheBookingWhenTeamABooksTwoMigSlicesOverHttp() throws Exception {
        cluster.apply("raycluster-train.yaml");
        cluster.apply("raycluster-waiting.yaml");
        Instant start = Instant.now().plus(ScenarioTiming.BOOKING_LEAD).truncatedTo(ChronoUnit.SECONDS);

        JsonNode confirmed = bookings.book(2, start, start.plus(ScenarioTiming.BOOKING_LENGTH));

        // CONFIRMED, unless a decision slower than the lead time was only read back after the start (step 9 sees
        // the confirmation on booking-events either way).
        assertThat(confirmed.path("state").asText()).isIn("CONFIRMED", "ACTIVE");
        assertThat(confirmed.path("tenant").asText()).isEqualTo("team-a");
        assertThat(confirmed.path("resource").asText()).isEqualTo(RESOURCE);
        assertThat(confirmed.path("quantity").asInt()).isEqualTo(2);
        scenario.bookingId = confirmed.path("id").asText();
        scenario.bookingStart = start;
    }

    @Test
    @Order(2)
    void shouldShowTheBookingInTheWebCalendarWhenTeamAOpensIt() {
        Instant opened = Instant.now();
        try (CalendarBrowser browser = new CalendarBrowser()) {
            browser.open(stack.url("booking-service"), stack.token("team-a"), FLAVOR);

            assertThat(browser.whoami()).contains("team-a");
            BookingRow row = browser.bookingRow(scenario.bookingId);
            assertThat(row.state()).isIn("CONFIRMED", "ACTIVE");
            assertThat(row.cells()).startsWith(FLAVOR, "2").contains("team-a");
            // Free units of the booked hour: the minimum over the hour, 14 slices less the 2 booked.
            assertThat(browser.freeUnitsAt(scenario.bookingStart.truncatedTo(ChronoUnit.HOURS)))
                    .contains("12/14");
        }
        scenario.figures.put("calendar in headless Chromium", Duration.between(opened, Instant.now()));
    }

    @Test
    @Order(3)
    void shouldCreateTheTenantQueuesWithTheBookedQuotaWhenTheBookingStarts() {
        await().atMost(ScenarioTiming.BOOKING_LEAD.plusSeconds(40))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    boolean present = cluster.clusterQueue(TENANT_QUEUE).isPresent();
                    assertThat(present && Instant.now().isBefore(scenario.bookingStart.minusMillis(500)))
                            .as(
                                    "ClusterQueue %s exists before the booking's start %s",
                                    TENANT_QUEUE, scenario.bookingStart)
                            .isFalse();
                    return present;
                });
        scenario.figures.put(
                "booking start -> ClusterQueue seen", Duration.between(scenario.bookingStart, Instant.now()));

        JsonNode queue = cluster.clusterQueue(TENANT_QUEUE).orElseThrow();
        assertThat(ClusterView.nominalQuota(queue, FLAVOR, RESOURCE)).contains("2");
        assertThat(queue.at("/spec/cohortName").asText()).isEqualTo(ClusterView.COHORT);
        assertThat(queue.at("/spec/namespaceSelector/matchLabels")
                        .path("gpuaas.io/tenant")
                        .asText())
                .isEqualTo("team-a");
        assertThat(queue.at("/spec/stopPolicy").asText()).isEqualTo("None");
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            for (String namespace : new String[] {"team-a", "team-a-dev"}) {
                assertThat(cluster.localQueue(namespace, LOCAL_QUEUE))
                        .as("LocalQueue %s/gpuaas", namespace)
                        .hasValueSatisfying(q ->
                                assertThat(q.at("/spec/clusterQueue").asText()).isEqualTo(TENANT_QUEUE));
            }
            assertThat(ClusterView.nominalQuota(cluster.cohort(), FLAVOR, RESOURCE))
                    .as("unreserved")
                    .contains("12");
            assertThat(booking().path("state").asText()).isEqualTo("ACTIVE");
        });
    }

    @Test
    @Order(4)
    void shouldAdmitTheRayClusterAndRunItsWorkersWhenTheQuotaExists() {
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(250))
                .untilAsserted(() -> {
                    JsonNode workload =
                            cluster.workloadOf(TRAIN).orElseThrow(() -> new AssertionError("no Workload yet"));
                    assertThat(ClusterView.condition(workload, "Admitted"))
                            .as("Admitted")
                            .isTrue();
                    assertThat(workload.at("/status/admission/clusterQueue").asText())
                            .isEqualTo(TENANT_QUEUE);
                    assertThat(cluster.runningWorkers(TRAIN)).hasSize(2);
                    assertThat(cluster.rayCluster(TRAIN).at("/spec/suspend").asBoolean())
                            .isFalse();
                    scenario.trainWorkload = workload.at("/metadata/name").asText();
                });
        JsonNode waiting = cluster.workloadOf(WAITING).orElseThrow();
        assertThat(ClusterView.condition(waiting, "Admitted"))
                .as("15 slices never fit in 14")
                .isFalse();
        scenario.waitingWorkload = waiting.at("/metadata/name").asText();
        scenario.figures.put(
                "booking start -> workers running", Duration.between(scenario.bookingStart, Instant.now()));
    }

    @Test
    @Order(5)
    void shouldAnswerQueueDepthAndTenantUtilizationThroughPromqlWhenPrometheusScrapesTheGateway() {
        String queue = "{cluster_queue=\"gpuaas-team-a\",local_queue=\"gpuaas\",namespace=\"team-a\"";
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofSeconds(1))
                .untilAsserted(() -> {
                    assertThat(prometheus.ready()).as(prometheus.log()).isTrue();
                    assertThat(prometheus.value("up{job=\"metrics-gateway\"}")).contains(1.0);
                    assertThat(prometheus.value("gpuaas_queue_pending_workloads" + queue + "}"))
                            .contains(1.0);
                    assertThat(prometheus.value("gpuaas_queue_admitted_workloads" + queue + "}"))
                            .contains(1.0);
                    assertThat(prometheus.value(
                                    "gpuaas_queue_pending_gpus" + queue + ",resource=\"" + RESOURCE + "\"}"))
                            .contains(15.0);
                    assertThat(prometheus.value("gpuaas_tenant_gpu_allocated{tenant=\"team-a\"}"))
                            .contains(2.0);
                    assertThat(prometheus.value("gpuaas_tenant_gpu_utilization_ratio{tenant=\"team-a\"}"))
                            .contains(0.7);
                    assertThat(prometheus.value(
                                    "gpuaas_tenant_booked_units{tenant=\"team-a\",pool=\"" + FLAVOR + "\"}"))
                            .contains(2.0);
                });
    }

    @Test
    @Order(6)
    void shouldScaleTheWorkersToZeroAndKeepTheReservationWhenTheirGpusStayIdle() {
        Instant idleFrom = Instant.now();
        cluster.simulateUtilization(TRAIN, "idle");

        await().atMost(ScenarioTiming.IDLE_WINDOW.plus(ScenarioTiming.WARM_UP).plusSeconds(60))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> ClusterView.workerGroup(cluster.rayCluster(TRAIN))
                                .path("replicas")
                                .asInt()
                        == 0);
        Duration tookToReclaim = Duration.between(idleFrom, Instant.now());
        scenario.figures.put("idle from -> workers at zero", tookToReclaim);

        // The reclaimer judges a window of IDLE_WINDOW / SCRAPE_INTERVAL whole sample slots ending with the slot of
        // the latest sample, so it may close up to one interval before IDLE_WINDOW has passed since the switch: the
        // last busy sample was scraped up to one interval before it (CI saw 19.886 s for a 20 s window).
        assertThat(tookToReclaim)
                .as("reclaimed only after the whole idle window, counted in sample slots")
                .isGreaterThanOrEqualTo(ScenarioTiming.IDLE_WINDOW.minus(ScenarioTiming.SCRAPE_INTERVAL));
        JsonNode ray = cluster.rayCluster(TRAIN);
        assertThat(ClusterView.workerGroup(ray).path("minReplicas").asInt()).isZero();
        assertThat(ray.at("/metadata/annotations").has("gpuaas.io/reclaimed-state"))
                .isTrue();
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(cluster.runningWorkers(TRAIN)).isEmpty());
        // The reservation stays: the booking is active, the quota is the tenant's, the Workload keeps its admission.
        assertThat(booking().path("state").asText()).isEqualTo("ACTIVE");
        assertThat(ClusterView.nominalQuota(cluster.clusterQueue(TENANT_QUEUE).orElseThrow(), FLAVOR, RESOURCE))
                .contains("2");
        assertThat(ClusterView.condition(cluster.workloadOf(TRAIN).orElseThrow(), "Admitted"))
                .isTrue();
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofSeconds(1))
                .untilAsserted(() -> {
                    assertThat(
                                    prometheus.value(
                                            "gpuaas_workload_idle{namespace=\"team-a\",kind=\"RayCluster\",name=\"e2e-train\"}"))
                            .contains(1.0);
                    assertThat(prometheus.value(
                                    "gpuaas_tenant_booked_units{tenant=\"team-a\",pool=\"" + FLAVOR + "\"}"))
                            .contains(2.0);
                });
    }

    @Test
    @Order(7)
    void shouldRestoreTheExactReplicaCountsWhenTeamAResumes() {
        cluster.simulateUtilization(TRAIN, "0.7");
        String resume = stack.url("idle-reclaimer") + "/api/v1/workloads/team-a/RayCluster/" + TRAIN + "/resume";

        assertThat(HTTP.post(resume, stack.token("team-b"), Map.of()).status())
                .as("another tenant")
                .isEqualTo(404);
        Answer answer = HTTP.post(resume, stack.token("team-a"), Map.of());

        assertThat(answer.status()).as(answer.raw()).isEqualTo(200);
        assertThat(answer.body().at("/groups/0/group").asText()).isEqualTo("gpu-workers");
        assertThat(answer.body().at("/groups/0/replicas").asInt()).isEqualTo(2);
        JsonNode ray = cluster.rayCluster(TRAIN);
        assertThat(ClusterView.workerGroup(ray).path("replicas").asInt()).isEqualTo(2);
        assertThat(ClusterView.workerGroup(ray).path("minReplicas").asInt()).isEqualTo(1);
        assertThat(ClusterView.workerGroup(ray).path("maxReplicas").asInt()).isEqualTo(4);
        assertThat(ray.at("/metadata/annotations").has("gpuaas.io/reclaimed-state"))
                .isFalse();
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(250))
                .untilAsserted(() -> {
                    assertThat(cluster.runningWorkers(TRAIN)).hasSize(2);
                    assertThat(ClusterView.condition(cluster.workloadOf(TRAIN).orElseThrow(), "Admitted"))
                            .isTrue();
                });
    }

    @Test
    @Order(8)
    void shouldCompleteTheBookingAndDrainTheQuotaWhenTheBookingEnds() {
        Instant end = Instant.now().plusSeconds(4).truncatedTo(ChronoUnit.SECONDS);
        JsonNode shortened = bookings.shorten(scenario.bookingId, end);
        assertThat(Instant.parse(shortened.path("end").asText())).isEqualTo(end);
        scenario.shortenedEnd = end;

        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(250))
                .untilAsserted(
                        () -> assertThat(booking().path("state").asText()).isEqualTo("COMPLETED"));
        boolean[] heldAndDrained = {false};
        await().atMost(ScenarioTiming.DRAIN_TIMEOUT.plusSeconds(40))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    var queue = cluster.clusterQueue(TENANT_QUEUE);
                    queue.filter(q -> "HoldAndDrain"
                                            .equals(q.at("/spec/stopPolicy").asText())
                                    && ClusterView.nominalQuota(q, FLAVOR, RESOURCE)
                                            .equals(Optional.of("0")))
                            .ifPresent(q -> heldAndDrained[0] = true);
                    return queue.isEmpty();
                });
        scenario.figures.put("booking end -> ClusterQueue deleted", Duration.between(end, Instant.now()));

        assertThat(heldAndDrained[0])
                .as("the ClusterQueue drained (HoldAndDrain, zero quota) before deletion")
                .isTrue();
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            assertThat(cluster.localQueue("team-a", LOCAL_QUEUE)).isEmpty();
            assertThat(cluster.localQueue("team-a-dev", LOCAL_QUEUE)).isEmpty();
            assertThat(ClusterView.nominalQuota(cluster.cohort(), FLAVOR, RESOURCE))
                    .as("all back")
                    .contains("14");
        });
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofSeconds(1))
                .untilAsserted(() -> assertThat(prometheus.value("gpuaas_tenant_booked_units{tenant=\"team-a\"}"))
                        .isEmpty());
    }

    @Test
    @Order(9)
    void shouldHoldTheExpectedCloudEventsOnEveryTopicWhenReadWithKcat() throws Exception {
        Instant reading = Instant.now();
        Path kafka = stack.kcatConfig();
        Map<String, List<KafkaRecord>> topics = new LinkedHashMap<>();
        for (String topic : TopicChecks.WRITERS.keySet()) {
            topics.put(topic, Kcat.readAll(kafka, topic));
        }
        topics.forEach((topic, records) -> TopicChecks.cloudEvents(topic, records, "io.gpuaas."));
        TopicChecks.bookingCommands(topics.get("gpuaas.booking-commands"), scenario.bookingId);
        TopicChecks.bookingEvents(topics.get("gpuaas.booking-events"), scenario.bookingId, scenario.shortenedEnd);
        TopicChecks.bookings(topics.get("gpuaas.bookings"), scenario.bookingId);
        TopicChecks.kueueWorkloads(
                topics.get("gpuaas.kueue-workloads"), scenario.trainWorkload, scenario.waitingWorkload);
        TopicChecks.gpuSamples(topics.get("gpuaas.gpu-samples"));
        TopicChecks.reclaimEvents(topics.get("gpuaas.reclaim-events"));
        TopicChecks.tenantUtilization(topics.get("gpuaas.tenant-utilization"));
        await().atMost(Duration.ofSeconds(15))
                .pollInterval(Duration.ofSeconds(1))
                .untilAsserted(() -> TopicChecks.quotaState(Kcat.readAll(kafka, "gpuaas.quota-state")));
        assertThat(Kcat.readAll(kafka, "gpuaas.dead-letter"))
                .as("dead-lettered records")
                .isEmpty();
        scenario.figures.put("kcat reads and checks", Duration.between(reading, Instant.now()));
    }

    private static JsonNode booking() {
        return bookings.get(scenario.bookingId);
    }
}
