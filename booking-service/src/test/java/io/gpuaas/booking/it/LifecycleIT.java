package io.gpuaas.booking.it;

import static io.gpuaas.booking.it.BookingApp.TEAM_A;
import static io.gpuaas.booking.it.BookingApp.TEAM_B;
import static io.gpuaas.booking.it.BookingApp.json;
import static io.gpuaas.booking.it.BookingApp.read;
import static io.gpuaas.events.KafkaPrincipal.QUOTA_PROJECTOR;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gpuaas.events.KafkaAccess;
import io.gpuaas.events.TopicAdmin;
import io.gpuaas.events.Topics;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.BookingEvent.BookingReleased;
import io.gpuaas.events.notice.Notice;
import io.gpuaas.events.notice.Notice.BookingEndingSoon;
import io.gpuaas.events.notice.Notice.NoShowWarning;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.events.workload.WorkloadEvent;
import io.gpuaas.events.workload.WorkloadEvent.Condition;
import io.gpuaas.events.workload.WorkloadEvent.PodSet;
import io.gpuaas.events.workload.WorkloadEvent.PodSetAdmission;
import io.gpuaas.events.workload.WorkloadEvent.WorkloadObserved;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The booking lifecycle on the real broker, booking-service as its own Kafka user: a no-show released at its pool's
 * grace (6 s here) after a warning at half of it, never while a Workload of the tenant is pending or admitted on the
 * pool (Workloads written as quota-projector writes them, as its user), and each ending-soon lead sent once. One-second
 * alignment, so a book-now's end is seconds away.
 */
@ExtendWith(KafkaBrokerExtension.class)
class LifecycleIT {

    private static final Duration GRACE = Duration.ofSeconds(6);
    private static final String NO_SHOWS = "h200";
    private static final String NO_SHOWS_TOO = "h200-mig-2g.35gb";
    private static final String NEVER = "h200-mig-1g.18gb";

    private static KafkaBroker broker;
    private static Path pools;
    private static BookingApp app;
    private static CommittedRecords<Notice> notices;
    private static CommittedRecords<BookingEvent> events;

    @BeforeAll
    static void start(KafkaBroker kafka) throws IOException {
        broker = kafka;
        pools = Files.createTempFile("pools", ".json");
        Files.writeString(
                pools,
                new PoolCatalog(List.of(
                                new Pool(NO_SHOWS, "h200", "nvidia.com/gpu", 8, "NVIDIA H200", null, GRACE),
                                new Pool(
                                        NEVER,
                                        NEVER,
                                        "nvidia.com/mig-1g.18gb",
                                        14,
                                        "NVIDIA H200",
                                        "1g.18gb",
                                        Duration.ZERO),
                                new Pool(
                                        NO_SHOWS_TOO,
                                        NO_SHOWS_TOO,
                                        "nvidia.com/mig-2g.35gb",
                                        9,
                                        "NVIDIA H200",
                                        "2g.35gb",
                                        GRACE)))
                        .toJson());
        app = BookingApp.start(broker, settings());
        notices = new CommittedRecords<>(broker, Topics.NOTICES, app.prefix);
        events = new CommittedRecords<>(broker, Topics.BOOKING_EVENTS, app.prefix);
    }

    @AfterAll
    static void stop() {
        notices.close();
        events.close();
        app.close();
    }

    @Test
    void shouldReleaseABookingAtItsPoolsGraceAfterAWarningAtHalfWhenNoWorkloadCame() {
        // In team-a-dev: the Workloads of the next test (team-a's namespace, another pool) do not count for it.
        Map<String, Object> booking = bookNow(TEAM_A, NO_SHOWS, "team-a-dev", "PT1M");
        String id = (String) booking.get("id");
        Instant start = Instant.parse((String) booking.get("start"));

        BookingReleased released = awaitReleased(id);
        NoShowWarning warning = (NoShowWarning) notices.values(id).getFirst();

        assertThat(warning.noticeId()).isEqualTo(Notice.noShowWarningId(id));
        assertThat(warning.activeSince()).isBetween(start, start.plusSeconds(1));
        assertThat(warning.releaseAt()).isEqualTo(warning.activeSince().plus(GRACE));
        assertThat(warning.time()).isBetween(warning.activeSince().plus(GRACE.dividedBy(2)), warning.releaseAt());
        assertThat(released.reason()).isEqualTo(BookingReleased.Reason.NO_SHOW);
        assertThat(released.releasedAt()).isAfterOrEqualTo(warning.releaseAt()).isBefore(start.plusSeconds(15));
        assertThat(read(app.get("/api/v1/bookings/" + id, TEAM_A).body())).containsEntry("state", "RELEASED");
        assertThat(notices.values(id)).as("one warning, nothing else").hasSize(1);
    }

    @Test
    void shouldKeepBookingsWhileAWorkloadOfTheirTenantIsPendingOrAdmittedOnTheirPool() throws Exception {
        publishAsQuotaProjector(pending("team-a", "wait-1", "nvidia.com/gpu"));
        publishAsQuotaProjector(
                admitted("team-a-dev", "run-1", "gpuaas-team-a", NO_SHOWS_TOO, "nvidia.com/mig-2g.35gb"));
        String pending = (String) bookNow(TEAM_A, NO_SHOWS, "team-a", "PT2M").get("id");
        String admitted =
                (String) bookNow(TEAM_A, NO_SHOWS_TOO, "team-a", "PT2M").get("id");
        // team-b runs nothing: its booking on the same pool is the control that the rule is live.
        String control = (String) bookNow(TEAM_B, NO_SHOWS, "team-b", "PT2M").get("id");

        awaitReleased(control);
        Thread.sleep(GRACE.toMillis());

        for (String id : List.of(pending, admitted)) {
            assertThat(read(app.get("/api/v1/bookings/" + id, TEAM_A).body()))
                    .as("booking %s", id)
                    .containsEntry("state", "ACTIVE");
            assertThat(notices.values(id)).as("notices of %s", id).isEmpty();
            assertThat(events.values(id)).noneMatch(BookingReleased.class::isInstance);
        }
    }

    @Test
    void shouldSendEachEndingSoonLeadOnceBeforeTheEndAndSkipALeadLongerThanTheBooking() throws Exception {
        String ten = (String) bookNow(TEAM_A, NEVER, "team-a", "PT10S").get("id");
        String five = (String) bookNow(TEAM_A, NEVER, "team-a", "PT5S").get("id");
        Instant end = Instant.parse(
                (String) read(app.get("/api/v1/bookings/" + ten, TEAM_A).body()).get("end"));

        await().atMost(Duration.ofSeconds(30))
                .until(() -> events.values(ten).stream().anyMatch(BookingEvent.BookingCompleted.class::isInstance));
        Thread.sleep(1000);

        assertThat(notices.values(ten)).hasSize(2).allSatisfy(n -> {
            BookingEndingSoon soon = (BookingEndingSoon) n;
            assertThat(soon.endsAt()).isEqualTo(end);
            assertThat(soon.time()).isBetween(end.minus(soon.lead()), end);
        });
        assertThat(notices.values(ten))
                .extracting(n -> ((BookingEndingSoon) n).lead())
                .containsExactly(Duration.ofSeconds(6), Duration.ofSeconds(3));
        assertThat(notices.values(five))
                .extracting(n -> ((BookingEndingSoon) n).lead())
                .containsExactly(Duration.ofSeconds(3));
    }

    @Test
    void shouldKnowAWorkloadPublishedBeforeTheServiceStartedWhenItsGlobalStoreIsRestoredFromTheTopic()
            throws Exception {
        String prefix = broker.uniquePrefix();
        try (Admin admin = broker.admin()) {
            TopicAdmin.createAll(admin, prefix);
        }
        // Read at start through the store's restore, which Streams runs through the updater (headers and all).
        publishAsQuotaProjector(prefix, pending("team-a", "queued-early", "nvidia.com/gpu"));
        try (BookingApp fresh = BookingApp.start(broker, prefix, broker.uniqueGroupId("booking"), settings());
                CommittedRecords<BookingEvent> freshEvents =
                        new CommittedRecords<>(broker, Topics.BOOKING_EVENTS, prefix)) {
            String kept =
                    (String) bookNow(fresh, TEAM_A, NO_SHOWS, "team-a", "PT2M").get("id");
            String control =
                    (String) bookNow(fresh, TEAM_B, NO_SHOWS, "team-b", "PT2M").get("id");

            await().atMost(Duration.ofSeconds(30))
                    .until(() -> freshEvents.values(control).stream().anyMatch(BookingReleased.class::isInstance));
            Thread.sleep(GRACE.toMillis());

            assertThat(read(fresh.get("/api/v1/bookings/" + kept, TEAM_A).body()))
                    .containsEntry("state", "ACTIVE");
        }
    }

    /** No quota-projector writes feed watermarks here: the feed guard is off (LifecycleFeedGuardIT shows it). */
    private static Map<String, Object> settings() {
        return Map.of(
                "gpuaas.booking.lifecycle.feed-staleness", "PT0S",
                "gpuaas.pools-file", pools.toString(),
                "gpuaas.booking.alignment", "PT1S",
                "gpuaas.booking.lifecycle.interval", "PT0.25S",
                "gpuaas.booking.lifecycle.ending-soon-leads", "PT6S,PT3S",
                "gpuaas.booking.http.requests-per-second", 50);
    }

    private static Map<String, Object> bookNow(String token, String pool, String namespace, String duration) {
        return bookNow(app, token, pool, namespace, duration);
    }

    private static Map<String, Object> bookNow(
            BookingApp service, String token, String pool, String namespace, String duration) {
        Map<String, Object> body =
                new HashMap<>(Map.of("pool", pool, "quantity", 1, "namespace", namespace, "duration", duration));
        HttpResponse<String> created = service.post(token, json(body));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        return read(created.body());
    }

    private static BookingReleased awaitReleased(String id) {
        await().atMost(Duration.ofSeconds(30))
                .until(() -> events.values(id).stream().anyMatch(BookingReleased.class::isInstance));
        return events.values(id).stream()
                .filter(BookingReleased.class::isInstance)
                .map(BookingReleased.class::cast)
                .findFirst()
                .orElseThrow();
    }

    private static void publishAsQuotaProjector(WorkloadObserved workload) throws Exception {
        publishAsQuotaProjector(app.prefix, workload);
    }

    private static void publishAsQuotaProjector(String prefix, WorkloadObserved workload) throws Exception {
        Map<String, Object> config = new HashMap<>(broker.clientProperties());
        config.putAll(broker.serviceCredentials(QUOTA_PROJECTOR.userName(), KafkaAccess.acls(QUOTA_PROJECTOR, prefix)));
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, WorkloadEvent> producer = new KafkaProducer<>(
                config,
                new StringSerializer(),
                Topics.KUEUE_WORKLOADS.valueSerde().serializer())) {
            producer.send(new ProducerRecord<>(
                            Topics.KUEUE_WORKLOADS.name(prefix),
                            WorkloadEvent.key(workload.namespace(), workload.name()),
                            workload))
                    .get();
        }
    }

    private static WorkloadObserved pending(String namespace, String name, String resource) {
        Condition waiting = new Condition("QuotaReserved", "False", "Pending", "waiting for quota", Instant.now());
        return new WorkloadObserved(
                namespace,
                name,
                "uid-" + name,
                "1",
                "gpuaas",
                null,
                null,
                null,
                true,
                waiting,
                List.of(waiting),
                List.of(new PodSet("workers", 1, Map.of(resource, "1"))),
                List.of(),
                null,
                Instant.now());
    }

    private static WorkloadObserved admitted(
            String namespace, String name, String clusterQueue, String flavor, String resource) {
        Condition in = new Condition("Admitted", "True", "Admitted", "admitted", Instant.now());
        return new WorkloadObserved(
                namespace,
                name,
                "uid-" + name,
                "2",
                "gpuaas",
                clusterQueue,
                null,
                null,
                true,
                in,
                List.of(new Condition("QuotaReserved", "True", "QuotaReserved", "reserved", Instant.now()), in),
                List.of(new PodSet("workers", 1, Map.of(resource, "1"))),
                List.of(new PodSetAdmission("workers", 1, Map.of(resource, flavor), Map.of(resource, "1"))),
                null,
                Instant.now());
    }
}
