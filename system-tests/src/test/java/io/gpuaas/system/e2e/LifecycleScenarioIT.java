package io.gpuaas.system.e2e;

import static io.gpuaas.system.e2e.ClusterView.FLAVOR;
import static io.gpuaas.system.e2e.ClusterView.LOCAL_QUEUE;
import static io.gpuaas.system.e2e.ClusterView.RESOURCE;
import static io.gpuaas.system.e2e.ClusterView.TENANT_QUEUE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Event;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.system.e2e.JsonHttp.Answer;
import io.gpuaas.system.e2e.Kcat.KafkaRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #16's lifecycle end to end on the local stack's parts, one step per test, in order: team-a books now and its
 * quota is there at once → team-b's booking with no Workload is warned and released as a no-show, while team-a's
 * request for the whole pool waits on the waitlist → the no-show release books team-a's waiting request in its own
 * decision (issue #29), with a {@code WaitlistBooked} notice → team-a's booking gets its ending-soon notice on Kafka and
 * as a Kubernetes Event with the projected end on its Workload → team-a's idle RayCluster is warned (ReclaimPending on
 * Kafka, Event and annotation) before it is reclaimed → both teams' ledger CSV shows what was booked, admitted,
 * reclaimed and released, checked by hand. Lead times and the no-show grace are seconds here; what an SRE sees on
 * Kafka is read with kcat as the SRE user.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@ExtendWith(StopAfterFirstFailure.class)
class LifecycleScenarioIT {

    private static final String TRAIN = "e2e-train";
    /** team-b's pool: its no-show grace is {@link #NO_SHOW_GRACE} in this stack's pool catalog. */
    private static final String NO_SHOW_POOL = "h200";

    private static final Duration NO_SHOW_GRACE = Duration.ofSeconds(20);
    /** Whole GPUs in {@link #NO_SHOW_POOL} on the scenario's 16-GPU fleet: team-a's waitlisted request asks for all. */
    private static final int NO_SHOW_POOL_CAPACITY = 8;
    /**
     * How long team-a's waitlisted request will wait: well past the no-show release (grace plus the lifecycle's tick),
     * well before team-b's 10-minute booking would end on its own (a latest start after that end is booked there at
     * once, not waitlisted).
     */
    private static final Duration WAITLIST_PATIENCE = Duration.ofMinutes(5);
    /** team-a's booking length and its one ending-soon lead: the notice comes a minute after the booking. */
    private static final Duration BOOKING_LENGTH = Duration.ofMinutes(2);

    private static final Duration ENDING_SOON_LEAD = Duration.ofMinutes(1);
    private static final JsonHttp HTTP = new JsonHttp();
    private static final Instant STARTED = Instant.now();

    private static E2eStack stack;
    private static ClusterView cluster;
    private static final Scenario scenario = new Scenario();

    /** What the steps hand on to each other. */
    static final class Scenario {
        String bookingId;
        Instant bookingStart;
        Instant bookingEnd;
        String noShowBookingId;
        String waitlistedId;
        final Map<String, Duration> figures = new LinkedHashMap<>();
    }

    @BeforeAll
    static void start() throws Exception {
        assumeTrue(Kcat.available(), "needs Debian's kcat (installed by .ci/run)");
        stack = E2eStack.start(
                List.of(
                        "--service-property",
                        "booking-service:gpuaas.booking.lifecycle.interval=PT1S",
                        "--service-property",
                        "booking-service:gpuaas.booking.lifecycle.ending-soon-leads=" + ENDING_SOON_LEAD),
                LifecycleScenarioIT::shortNoShowGrace);
        scenario.figures.put("stack and services up", Duration.between(STARTED, Instant.now()));
        cluster = new ClusterView(stack.kube());
    }

    @AfterAll
    static void stop() {
        if (stack != null) {
            if (StopAfterFirstFailure.failedStep().isPresent()) {
                System.out.println("service logs at the failure:" + stack.logTails());
            }
            stack.close();
        }
        scenario.figures.put("whole scenario", Duration.between(STARTED, Instant.now()));
        scenario.figures.forEach(
                (name, d) -> System.out.printf("lifecycle: %-44s %6.1f s%n", name, d.toMillis() / 1000.0));
    }

    @Test
    @Order(1)
    void shouldBeActiveAtOnceWithItsQuotaInKueueWhenTeamABooksNow() throws Exception {
        cluster.apply("raycluster-train.yaml");
        // Idle from the start: its reclaim runs while the next steps do.
        cluster.simulateUtilization(TRAIN, "idle");

        Answer answer = teamA().bookNow(2, BOOKING_LENGTH);

        assertThat(answer.status()).as(answer.raw()).isEqualTo(201);
        assertThat(answer.body().path("state").asText()).isEqualTo("ACTIVE");
        scenario.bookingId = answer.body().path("id").asText();
        scenario.bookingStart = Instant.parse(answer.body().path("start").asText());
        scenario.bookingEnd = Instant.parse(answer.body().path("end").asText());
        // The end is start + duration rounded up to the stack's alignment (whole seconds).
        assertThat(Duration.between(scenario.bookingStart, scenario.bookingEnd))
                .isBetween(BOOKING_LENGTH, BOOKING_LENGTH.plus(ScenarioTiming.ALIGNMENT));
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> cluster.clusterQueue(TENANT_QUEUE)
                        .flatMap(q -> ClusterView.nominalQuota(q, FLAVOR, RESOURCE))
                        .filter("2"::equals)
                        .isPresent());
        scenario.figures.put(
                "book now -> ClusterQueue quota seen", Duration.between(scenario.bookingStart, Instant.now()));
    }

    @Test
    @Order(2)
    void shouldWarnAndReleaseTeamBsBookingAsANoShowWhenNoWorkloadComes() throws Exception {
        BookingClient teamB = new BookingClient(HTTP, stack.url("booking-service"), stack.token("team-b"));
        Answer answer = HTTP.post(
                stack.url("booking-service") + "/api/v1/bookings",
                stack.token("team-b"),
                Map.of("pool", NO_SHOW_POOL, "quantity", 1, "duration", "PT10M", "namespace", "team-b"));
        assertThat(answer.status()).as(answer.raw()).isEqualTo(201);
        String id = answer.body().path("id").asText();
        scenario.noShowBookingId = id;
        Instant start = Instant.parse(answer.body().path("start").asText());

        // Before the release: team-a asks for the whole pool now; team-b's one GPU is in the way, so it waits.
        String waitingId = waitForTheWholePool();
        scenario.waitlistedId = waitingId;
        assertThat(HTTP.get(stack.url("booking-service") + "/api/v1/bookings/" + waitingId, stack.token("team-a"))
                        .status())
                .as("no booking while it waits")
                .isEqualTo(404);
        assertThat(teamB.get(id).path("state").asText())
                .as("team-b's booking still held after the entry read WAITING")
                .isEqualTo("ACTIVE");

        await().atMost(Duration.ofSeconds(30))
                .until(() -> cluster.clusterQueue("gpuaas-team-b").isPresent());

        await().atMost(NO_SHOW_GRACE.plusSeconds(40))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> "RELEASED".equals(teamB.get(id).path("state").asText()));
        scenario.figures.put("team-b's start -> released as a no-show", Duration.between(start, Instant.now()));

        KafkaRecord warning = one(notices(), "io.gpuaas.notice.no-show-warning.v1", id);
        Instant releaseAt = Instant.parse(warning.body().path("releaseAt").asText());
        assertThat(Duration.between(
                        Instant.parse(warning.body().path("activeSince").asText()), releaseAt))
                .isEqualTo(NO_SHOW_GRACE);
        KafkaRecord released = one(kcat("gpuaas.booking-events"), "io.gpuaas.booking.released.v1", id);
        assertThat(released.body().path("reason").asText()).isEqualTo("NO_SHOW");
        assertThat(Instant.parse(released.body().path("time").asText())).isAfterOrEqualTo(releaseAt);
        assertThat(cluster.events("team-b", "NoShowWarning", "LocalQueue"))
                .as("the warning on team-b's LocalQueue")
                .singleElement()
                .satisfies(e -> assertThat(e.getMessage()).contains(id, releaseAt.toString()));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(cluster.clusterQueue("gpuaas-team-b"))
                .as("team-b's quota gone")
                .isEmpty());
    }

    /**
     * team-b's no-show release gives its GPU back, and in the same decision team-a's waiting request, arrived earlier,
     * is booked under its entry's id: the booking's creation is the release's instant, its {@code WaitlistBooked}
     * notice on {@code gpuaas.notices} says so, and the entry reads BOOKED. team-a then ends it, so the pool is free
     * again and the rest of the scenario is as before.
     */
    @Test
    @Order(3)
    void shouldBookTeamAsWaitingRequestInTheNoShowReleaseThatFreesThePool() throws Exception {
        String id = scenario.waitlistedId;
        String bookings = stack.url("booking-service") + "/api/v1/bookings/";
        JsonNode booked = await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> HTTP.get(bookings + id, stack.token("team-a")), a -> a.status() == 200)
                .body();
        Instant read = Instant.now();
        KafkaRecord released =
                one(kcat("gpuaas.booking-events"), "io.gpuaas.booking.released.v1", scenario.noShowBookingId);
        Instant releasedAt = Instant.parse(released.body().path("time").asText());
        scenario.figures.put("team-b released -> team-a's waitlisted booking read", Duration.between(releasedAt, read));

        assertThat(booked.path("state").asText()).isIn("CONFIRMED", "ACTIVE");
        assertThat(booked.path("tenant").asText()).isEqualTo("team-a");
        assertThat(booked.path("pool").asText()).isEqualTo(NO_SHOW_POOL);
        assertThat(booked.path("quantity").asInt()).isEqualTo(NO_SHOW_POOL_CAPACITY);
        assertThat(Instant.parse(booked.path("createdAt").asText()))
                .as("booked in the no-show release's own decision: the same instant on the engine's clock")
                .isEqualTo(releasedAt);
        assertThat(waitlistEntry(id).path("state").asText()).isEqualTo("BOOKED");

        KafkaRecord notice = await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofSeconds(1))
                .until(
                        () -> notices().stream()
                                .filter(r ->
                                        id.equals(r.key()) && "io.gpuaas.notice.waitlist-booked.v1".equals(r.type()))
                                .toList(),
                        found -> !found.isEmpty())
                .getFirst();
        one(notices(), "io.gpuaas.notice.waitlist-booked.v1", id);
        assertThat(notice.body().path("tenant").asText()).isEqualTo("team-a");
        assertThat(notice.body().path("quantity").asInt()).isEqualTo(NO_SHOW_POOL_CAPACITY);
        assertThat(Instant.parse(notice.body().path("time").asText())).isEqualTo(releasedAt);
        assertThat(Instant.parse(notice.body().path("start").asText()))
                .isEqualTo(Instant.parse(booked.path("start").asText()));
        assertThat(Instant.parse(notice.body().path("waitingSince").asText()))
                .as("it waited from before the release")
                .isBefore(releasedAt);

        Answer ended = teamA().end(id);
        assertThat(ended.status()).as(ended.raw()).isEqualTo(200);
    }

    @Test
    @Order(4)
    void shouldNoticeTheEndOnKafkaAndOnTheWorkloadWhenTeamAsBookingEndsSoon() throws Exception {
        Instant due = scenario.bookingEnd.minus(ENDING_SOON_LEAD);
        String workload = await().atMost(Duration.ofSeconds(60))
                .until(() -> cluster.workloadOf(TRAIN), w -> w.isPresent())
                .orElseThrow()
                .at("/metadata/name")
                .asText();

        await().atMost(Duration.between(Instant.now(), due).plusSeconds(30))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> assertThat(cluster.events("team-a", "BookingEndingSoon", "Workload"))
                        .anySatisfy(
                                e -> assertThat(e.getInvolvedObject().getName()).isEqualTo(workload)));
        scenario.figures.put("ending-soon due -> Event on the Workload", Duration.between(due, Instant.now()));

        KafkaRecord notice = one(notices(), "io.gpuaas.notice.booking-ending-soon.v1", scenario.bookingId);
        assertThat(Instant.parse(notice.body().path("endsAt").asText())).isEqualTo(scenario.bookingEnd);
        assertThat(notice.body().path("lead").asText()).isEqualTo(ENDING_SOON_LEAD.toString());
        Event event = cluster.events("team-a", "BookingEndingSoon", "Workload").stream()
                .filter(e -> workload.equals(e.getInvolvedObject().getName()))
                .findFirst()
                .orElseThrow();
        assertThat(event.getMessage()).contains(scenario.bookingId, FLAVOR, scenario.bookingEnd.toString());
        assertThat(cluster.workloadOf(TRAIN)
                        .orElseThrow()
                        .at("/metadata/annotations/gpuaas.io~1booking-ends-at")
                        .asText())
                .isEqualTo(scenario.bookingEnd.toString());
        assertThat(cluster.localQueue("team-a", LOCAL_QUEUE)
                        .orElseThrow()
                        .at("/metadata/annotations/gpuaas.io~1booking-ends-at")
                        .asText())
                .isEqualTo(scenario.bookingEnd.toString());
    }

    @Test
    @Order(5)
    void shouldAnnounceTheReclaimBeforeItHappensWhenTeamAsRayClusterStaysIdle() throws Exception {
        String key = "team-a/RayCluster/" + TRAIN;
        KafkaRecord reclaimed = await().atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofSeconds(1))
                .until(
                        () -> kcat("gpuaas.reclaim-events").stream()
                                .filter(r -> key.equals(r.key()) && "io.gpuaas.reclaim.reclaimed.v1".equals(r.type()))
                                .findFirst(),
                        r -> r.isPresent())
                .orElseThrow();
        Instant reclaimedAt = Instant.parse(reclaimed.body().path("time").asText());

        KafkaRecord pending = notices().stream()
                .filter(r -> key.equals(r.key()) && "io.gpuaas.notice.reclaim-pending.v1".equals(r.type()))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no ReclaimPending before the reclaim"));
        Instant noticed = Instant.parse(pending.body().path("time").asText());
        Instant reclaimAt = Instant.parse(pending.body().path("reclaimAt").asText());
        scenario.figures.put("ReclaimPending -> Reclaimed", Duration.between(noticed, reclaimedAt));
        assertThat(noticed).as("ReclaimPending before Reclaimed").isBefore(reclaimedAt);
        assertThat(reclaimedAt).as("reclaimed at about the projected time").isAfterOrEqualTo(reclaimAt.minusSeconds(2));
        assertThat(cluster.events("team-a", "ReclaimPending", "RayCluster"))
                .as("the ReclaimPending Event on the RayCluster, made before the reclaim")
                .anySatisfy(e -> {
                    assertThat(e.getInvolvedObject().getName()).isEqualTo(TRAIN);
                    assertThat(Instant.parse(e.getFirstTimestamp())).isBefore(reclaimedAt);
                });
        assertThat(cluster.rayCluster(TRAIN)
                        .at("/metadata/annotations/gpuaas.io~1reclaim-at")
                        .asText())
                .isEqualTo(reclaimAt.toString());
    }

    /**
     * The ledger CSV by hand. team-a: 2 slices of 1g.18gb on an H200 (1/7 of a GPU each) over the booked window, so
     * booked = 2 x 1/7 x window hours; its RayCluster was admitted and reclaimed while the booking held, nothing was
     * released. team-b: 1 whole H200 for 10 min (rounded up to a whole second) released as a no-show, so booked =
     * 1 x 1 x window hours and released = 1 x (end - releasedAt) hours. Each tenant sees only its own rows.
     */
    @Test
    @Order(6)
    void shouldShowBookedAdmittedReclaimedAndReleasedGpuHoursInEachTeamsLedgerCsv() throws Exception {
        String teamBBooking = scenario.noShowBookingId;
        Map<String, Map<String, String>> teamA = await().atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofSeconds(1))
                .until(
                        () -> LedgerCsv.byBooking(stack, "team-a"),
                        rows -> reclaimedAndAdmitted(rows.get(scenario.bookingId)));
        Map<String, String> a = teamA.get(scenario.bookingId);
        double windowHours =
                Duration.between(scenario.bookingStart, scenario.bookingEnd).toMillis() / 3_600_000.0;
        assertThat(a.get("tenant")).isEqualTo("team-a");
        assertThat(a.get("pool")).isEqualTo(FLAVOR);
        assertThat(figure(a, "booked")).isCloseTo(2 * (1.0 / 7) * windowHours, within(0.000_001));
        assertThat(figure(a, "admitted")).isPositive().isLessThanOrEqualTo(figure(a, "booked"));
        assertThat(figure(a, "reclaimed")).isPositive().isLessThanOrEqualTo(figure(a, "booked"));
        assertThat(figure(a, "released")).isZero();
        assertThat(figure(a, "busy") + figure(a, "idle")).isLessThanOrEqualTo(figure(a, "booked") + 0.000_001);
        assertThat(teamA).as("team-a sees none of team-b's bookings").doesNotContainKey(teamBBooking);

        Map<String, String> b = await().atMost(Duration.ofSeconds(30))
                .until(
                        () -> LedgerCsv.byBooking(stack, "team-b").get(teamBBooking),
                        row -> row != null && figure(row, "released") > 0);
        Instant releasedAt = Instant.parse(b.get("released_at"));
        Instant end = Instant.parse(b.get("end"));
        // Book-now rounds start + PT10M up to the stack's alignment (whole seconds): the window is 10 min and a bit.
        Duration window = Duration.between(Instant.parse(b.get("start")), end);
        assertThat(window)
                .isBetween(Duration.ofMinutes(10), Duration.ofMinutes(10).plus(ScenarioTiming.ALIGNMENT));
        assertThat(b.get("release_reason")).isEqualTo("NO_SHOW");
        assertThat(figure(b, "booked")).isCloseTo(window.toMillis() / 3_600_000.0, within(0.000_001));
        assertThat(figure(b, "released"))
                .isCloseTo(Duration.between(releasedAt, end).toMillis() / 3_600_000.0, within(0.000_001));
        assertThat(figure(b, "admitted")).isZero();
    }

    /**
     * team-a's request for all of {@link #NO_SHOW_POOL} from now, willing to start up to {@link #WAITLIST_PATIENCE}
     * later: answered 202 with the entry (or, when the decision outlasts the edge's wait, 202 pending with its id);
     * returns the entry's id once it reads WAITING at {@code /api/v1/waitlist/{id}}.
     */
    private static String waitForTheWholePool() {
        Instant latestStart = Instant.now().plus(WAITLIST_PATIENCE);
        Answer answer = HTTP.post(
                stack.url("booking-service") + "/api/v1/bookings",
                stack.token("team-a"),
                Map.of(
                        "pool",
                        NO_SHOW_POOL,
                        "quantity",
                        NO_SHOW_POOL_CAPACITY,
                        "duration",
                        "PT10M",
                        "namespace",
                        "team-a",
                        "purpose",
                        "waits for the whole pool",
                        "waitlist",
                        Map.of("latestStart", latestStart.toString())));
        assertThat(answer.status()).as(answer.raw()).isEqualTo(202);
        boolean pending = answer.body().has("bookingId");
        String id = answer.body().path(pending ? "bookingId" : "id").asText();
        // The entry is readable at once after its own answer; after a pending one, once the decision is made.
        JsonNode entry = await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(250))
                .until(
                        () -> HTTP.get(stack.url("booking-service") + "/api/v1/waitlist/" + id, stack.token("team-a")),
                        a -> a.status() == 200)
                .body();
        assertThat(entry.path("state").asText()).as(entry.toString()).isEqualTo("WAITING");
        assertThat(entry.path("tenant").asText()).isEqualTo("team-a");
        return id;
    }

    /** The waitlist entry {@code id} as team-a reads it. */
    private static JsonNode waitlistEntry(String id) {
        Answer answer = HTTP.get(stack.url("booking-service") + "/api/v1/waitlist/" + id, stack.token("team-a"));
        assertThat(answer.status()).as(answer.raw()).isEqualTo(200);
        return answer.body();
    }

    private static boolean reclaimedAndAdmitted(Map<String, String> row) {
        return row != null && figure(row, "reclaimed") > 0 && figure(row, "admitted") > 0;
    }

    private static double figure(Map<String, String> row, String column) {
        return Double.parseDouble(row.get(column));
    }

    private static BookingClient teamA() {
        return new BookingClient(HTTP, stack.url("booking-service"), stack.token("team-a"));
    }

    /** The stack's pools, with {@link #NO_SHOW_GRACE} for {@link #NO_SHOW_POOL}. */
    private static PoolCatalog shortNoShowGrace(PoolCatalog pools) {
        return new PoolCatalog(pools.pools().stream()
                .map(p -> p.id().equals(NO_SHOW_POOL)
                        ? new Pool(
                                p.id(),
                                p.flavor(),
                                p.resource(),
                                p.capacity(),
                                p.gpuModel(),
                                p.migProfile(),
                                NO_SHOW_GRACE)
                        : p)
                .toList());
    }

    private static List<KafkaRecord> notices() throws Exception {
        return kcat("gpuaas.notices");
    }

    private static List<KafkaRecord> kcat(String topic) throws Exception {
        return Kcat.readAll(stack.kcatConfig(), topic);
    }

    /** The one record of {@code type} keyed {@code key}. */
    private static KafkaRecord one(List<KafkaRecord> records, String type, String key) {
        List<KafkaRecord> ours = records.stream()
                .filter(r -> key.equals(r.key()) && type.equals(r.type()))
                .toList();
        assertThat(ours).as("%s of %s", type, key).hasSize(1);
        return ours.get(0);
    }
}
