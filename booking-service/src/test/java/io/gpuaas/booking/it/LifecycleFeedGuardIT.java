package io.gpuaas.booking.it;

import static io.gpuaas.booking.it.BookingApp.TEAM_A;
import static io.gpuaas.booking.it.BookingApp.json;
import static io.gpuaas.booking.it.BookingApp.read;
import static io.gpuaas.events.KafkaPrincipal.QUOTA_PROJECTOR;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gpuaas.events.KafkaAccess;
import io.gpuaas.events.Topics;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.BookingEvent.BookingReleased;
import io.gpuaas.events.notice.Notice;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.events.workload.WorkloadEvent;
import io.gpuaas.events.workload.WorkloadEvent.FeedWatermark;
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
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer.OrderAnnotation;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The no-show release's feed guard on the real broker: while no quota-projector has proven the Workload feed live
 * (no FeedWatermark, or none within {@code feed-staleness}), an unused booking is neither warned nor released, since a
 * Workload created meanwhile may simply be missing from the topic; once watermarks come (written as quota-projector
 * writes them, as its user, to every partition), the deferred release goes out, and a booking made while they flow is
 * released at its grace.
 */
@ExtendWith(KafkaBrokerExtension.class)
@TestMethodOrder(OrderAnnotation.class)
class LifecycleFeedGuardIT {

    private static final Duration GRACE = Duration.ofSeconds(4);
    private static final Duration STALE_AFTER = Duration.ofSeconds(3);
    private static final String POOL = "h200";

    private static KafkaBroker broker;
    private static Path pools;
    private static BookingApp app;
    private static CommittedRecords<Notice> notices;
    private static CommittedRecords<BookingEvent> events;
    private static KafkaProducer<String, WorkloadEvent> quotaProjector;
    private static final ScheduledExecutorService WATERMARKS = Executors.newSingleThreadScheduledExecutor();
    private static String deferred;

    @BeforeAll
    static void start(KafkaBroker kafka) throws IOException {
        broker = kafka;
        pools = Files.createTempFile("pools", ".json");
        Files.writeString(
                pools,
                new PoolCatalog(List.of(new Pool(POOL, "h200", "nvidia.com/gpu", 8, "NVIDIA H200", null, GRACE)))
                        .toJson());
        app = BookingApp.start(
                broker,
                Map.of(
                        "gpuaas.pools-file", pools.toString(),
                        "gpuaas.booking.alignment", "PT1S",
                        "gpuaas.booking.lifecycle.interval", "PT0.25S",
                        "gpuaas.booking.lifecycle.ending-soon-leads", "PT6S",
                        "gpuaas.booking.lifecycle.feed-staleness", "PT3S"));
        notices = new CommittedRecords<>(broker, Topics.NOTICES, app.prefix);
        events = new CommittedRecords<>(broker, Topics.BOOKING_EVENTS, app.prefix);
        Map<String, Object> config = new HashMap<>(broker.clientProperties());
        config.putAll(
                broker.serviceCredentials(QUOTA_PROJECTOR.userName(), KafkaAccess.acls(QUOTA_PROJECTOR, app.prefix)));
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        quotaProjector = new KafkaProducer<>(
                config,
                new StringSerializer(),
                Topics.KUEUE_WORKLOADS.valueSerde().serializer());
    }

    @AfterAll
    static void stop() {
        WATERMARKS.shutdownNow();
        quotaProjector.close();
        notices.close();
        events.close();
        app.close();
    }

    @Test
    @Order(1)
    void shouldNeitherWarnNorReleaseAnUnusedBookingWhileNoWatermarkProvesTheFeedLive() throws Exception {
        deferred = bookNow();

        Thread.sleep(GRACE.plus(STALE_AFTER).toMillis());

        assertThat(notices.values(deferred)).as("no NoShowWarning").isEmpty();
        assertThat(events.values(deferred)).noneMatch(BookingReleased.class::isInstance);
        assertThat(read(app.get("/api/v1/bookings/" + deferred, TEAM_A).body())).containsEntry("state", "ACTIVE");
    }

    @Test
    @Order(2)
    void shouldReleaseTheDeferredBookingOnceWatermarksComeAndTheNextAtItsGrace() {
        Instant fresh = Instant.now();
        WATERMARKS.scheduleAtFixedRate(LifecycleFeedGuardIT::watermarks, 0, 500, TimeUnit.MILLISECONDS);

        BookingReleased late = awaitReleased(deferred);
        String next = bookNow();
        Instant start = Instant.parse((String)
                read(app.get("/api/v1/bookings/" + next, TEAM_A).body()).get("start"));
        BookingReleased onTime = awaitReleased(next);

        assertThat(late.reason()).isEqualTo(BookingReleased.Reason.NO_SHOW);
        assertThat(late.releasedAt()).as("soon after the feed turned fresh").isBetween(fresh, fresh.plusSeconds(5));
        assertThat(onTime.reason()).isEqualTo(BookingReleased.Reason.NO_SHOW);
        assertThat(onTime.releasedAt())
                .as("at the grace, counted from when the lifecycle first saw it")
                .isBetween(start.plus(GRACE), start.plus(GRACE).plusSeconds(3));
        assertThat(notices.values(next))
                .as("a warning at half the grace")
                .singleElement()
                .isInstanceOf(Notice.NoShowWarning.class);
    }

    /** One watermark to every partition of the Workload topic, as quota-projector's Lease holder writes them. */
    private static void watermarks() {
        String topic = Topics.KUEUE_WORKLOADS.name(app.prefix);
        for (var partition : quotaProjector.partitionsFor(topic)) {
            FeedWatermark mark = new FeedWatermark(partition.partition(), "test", Instant.now());
            quotaProjector.send(new ProducerRecord<>(
                    topic, mark.partition(), WorkloadEvent.key(mark.namespace(), mark.name()), mark));
        }
    }

    private static String bookNow() {
        Map<String, Object> body =
                new HashMap<>(Map.of("pool", POOL, "quantity", 1, "namespace", "team-a", "duration", "PT1M"));
        HttpResponse<String> created = app.post(TEAM_A, json(body));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        return (String) read(created.body()).get("id");
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
}
