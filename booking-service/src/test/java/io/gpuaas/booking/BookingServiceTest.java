package io.gpuaas.booking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuaas.booking.config.BookingSettings;
import io.gpuaas.booking.config.EngineTuning;
import io.gpuaas.booking.config.FeedSettings;
import io.gpuaas.booking.config.LifecycleSettings;
import io.gpuaas.booking.dashboard.DashboardSettings;
import io.gpuaas.booking.http.ProblemException;
import io.gpuaas.booking.kafka.BookingView;
import io.gpuaas.booking.kafka.DecisionAwaiter;
import io.gpuaas.booking.kafka.IdempotencyKeys;
import io.gpuaas.booking.metrics.BookingMetrics;
import io.gpuaas.booking.webhook.WebhookSettings;
import io.gpuaas.events.booking.Caller;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.kit.config.KafkaSettings;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.kit.runtime.ServiceComponent;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The composition root decides from settings which parts booking-service runs and in which start order: the feeds
 * before the decision engine (which therefore stops first, while the feed still answers), webhook delivery only with
 * an encryption key, its task pool stopped after its consumer. Built without the container and never started: the
 * clients are created (they connect lazily) and closed again.
 */
class BookingServiceTest {

    private static final PoolCatalog POOLS = PoolCatalog.load(Optional.empty());
    private static final String KEY = Base64.getEncoder().encodeToString(new byte[32]);

    private final KafkaClients kafka = new KafkaClients(new KafkaSettings("127.0.0.1:1", "gpuaas.", Map.of()));
    private final List<AutoCloseable> opened = new ArrayList<>();

    @TempDir
    Path stateDir;

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable closeable : opened.reversed()) {
            closeable.close();
        }
        kafka.close();
    }

    @Test
    void shouldRunTheFeedsBeforeTheDecisionEngineAndNoWebhookPartsWhenNoEncryptionKeyIsSet() {
        BookingService service = build(null);

        assertThat(names(service)).containsExactly("booking-feed", "dashboard-feed", "decision-engine");
        assertThatThrownBy(() -> service.webhooks().list(tenant(), null))
                .isInstanceOfSatisfying(ProblemException.class, problem -> {
                    assertThat(problem.status()).isEqualTo(503);
                    assertThat(problem.rule()).isEqualTo("WEBHOOKS_DISABLED");
                });
    }

    @Test
    void shouldDeliverNoticesAfterTheRegistryIsReadAndStopTheTaskPoolLastWhenAnEncryptionKeyIsSet() {
        BookingService service = build(KEY);

        assertThat(names(service))
                .containsExactly(
                        "booking-feed",
                        "dashboard-feed",
                        "webhook-registry",
                        "decision-engine",
                        "webhook-deliveries",
                        "webhook-deliverer");
        assertThat(order(service, "webhook-deliveries")).isLessThan(order(service, "webhook-deliverer"));
        assertThat(service.webhooks().list(tenant(), null)).isEmpty();
    }

    @Test
    void shouldStopTheDecisionEngineWhileTheBookingFeedStillRunsWhenTheServiceStops() {
        BookingService service = build(null);

        assertThat(order(service, "decision-engine")).isGreaterThan(order(service, "booking-feed"));
    }

    private BookingService build(String encryptionKey) {
        BookingSettings booking = new BookingSettings(
                Duration.ofDays(14),
                Duration.ofDays(90),
                Duration.ofMinutes(15),
                1.0,
                Duration.ofMinutes(1),
                Duration.ofSeconds(3),
                Duration.ofMillis(200),
                Duration.ofDays(7),
                null,
                stateDir.toString());
        BookingService.Settings settings = new BookingService.Settings(
                booking,
                EngineTuning.defaults(),
                new FeedSettings(
                        5,
                        Duration.ofMillis(200),
                        Duration.ofSeconds(5),
                        Duration.ofSeconds(5),
                        Duration.ofSeconds(10)),
                new LifecycleSettings(
                        Duration.ofSeconds(5),
                        List.of(Duration.ofMinutes(15), Duration.ofMinutes(5)),
                        Duration.ofMinutes(15),
                        Duration.ofMinutes(2)),
                new DashboardSettings(null, Duration.ofSeconds(10), null, Duration.ofSeconds(10)),
                new WebhookSettings(
                        encryptionKey,
                        List.of(),
                        10,
                        8,
                        Duration.ofSeconds(1),
                        Duration.ofMinutes(5),
                        Duration.ofSeconds(2),
                        Duration.ofSeconds(5),
                        2,
                        1000,
                        10000));
        PrometheusRegistry registry = new PrometheusRegistry();
        BookingService service = new BookingService(
                settings,
                kafka,
                POOLS,
                new BookingService.Views(
                        new BookingView(),
                        new DecisionAwaiter(),
                        new IdempotencyKeys(Duration.ofDays(7), Clock.systemUTC())),
                new BookingMetrics(registry),
                registry);
        opened.add(service);
        // Never started: stopping ends what building opened, as the lifecycle would.
        opened.add(() -> service.components().reversed().forEach(c -> c.stop(Duration.ofSeconds(1))));
        return service;
    }

    /** The components in the order the lifecycle starts them (by start order, equal orders as listed). */
    private static List<String> names(BookingService service) {
        return service.components().stream()
                .sorted(Comparator.comparingInt(ServiceComponent::startOrder))
                .map(ServiceComponent::name)
                .toList();
    }

    private static int order(BookingService service, String name) {
        return service.components().stream()
                .filter(c -> c.name().equals(name))
                .findFirst()
                .orElseThrow()
                .startOrder();
    }

    private static Caller tenant() {
        return new Caller("alice", "team-a", false, false);
    }
}
