package io.gpuaas.booking.it;

import static io.gpuaas.booking.it.BookingApp.ADMIN;
import static io.gpuaas.booking.it.BookingApp.TEAM_A;
import static io.gpuaas.booking.it.BookingApp.createBody;
import static io.gpuaas.booking.it.BookingApp.hourFromNow;
import static io.gpuaas.booking.it.BookingApp.read;
import static io.gpuaas.events.KafkaPrincipal.BOOKING_SERVICE;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.KafkaAccess;
import io.gpuaas.testing.health.Readiness;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.acl.AclBinding;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * booking-service's runtime under faults, on the real broker, judged as a probe and a client see it: readiness is
 * DOWN while the booking feed fails or the service is cut off from Kafka, comes back by itself, and bookings made
 * before, during and after the fault are all readable afterwards.
 */
@ExtendWith(KafkaBrokerExtension.class)
class BookingFaultIT {

    private static final Duration WAIT = Duration.ofSeconds(90);

    @Test
    void shouldBeUnreadyWhileTheFeedFailsAndRecoverByItselfWithoutLosingTheDecision(KafkaBroker broker) {
        try (BookingApp app = BookingApp.start(
                broker,
                Map.of(
                        FaultyBookingView.ENABLED,
                        true,
                        // Retried (not dead-lettered) for as long as the fault lasts here.
                        "gpuaas.booking.feed.handler-retries",
                        1_000,
                        "gpuaas.booking.feed.backoff-max",
                        "PT1S",
                        "gpuaas.booking.decision-timeout",
                        "PT2S"))) {
            FaultyBookingView view = app.bean(FaultyBookingView.class);
            Instant start = hourFromNow(3);

            view.failing(true);
            HttpResponse<String> during =
                    app.post(TEAM_A, createBody("h200", 1, start, start.plusSeconds(3600), "team-a"));
            assertThat(during.statusCode())
                    .as("decided, but the feed cannot read it: %s", during.body())
                    .isEqualTo(202);
            Readiness readiness = readiness(app);
            assertThat(readiness.awaitComponent("booking-feed", "RECOVERING").down())
                    .isTrue();

            view.failing(false);
            readiness.awaitUp();
            String decidedDuringFault = during.headers().firstValue("Location").orElseThrow();
            assertThat(app.get(decidedDuringFault, TEAM_A).statusCode()).isEqualTo(200);
            assertBookable(app, start.plusSeconds(7200));
        }
    }

    @Test
    void shouldBeUnreadyWhileCutOffFromKafkaAndGoOnBookingWhenAccessReturns(KafkaBroker broker) {
        try (BookingApp app = BookingApp.start(
                broker,
                Map.of(
                        "gpuaas.booking.feed.probe-interval",
                        "PT1S",
                        "gpuaas.booking.feed.probe-timeout",
                        "PT3S",
                        "gpuaas.booking.feed.backoff-max",
                        "PT2S",
                        "gpuaas.booking.decision-timeout",
                        "PT15S"))) {
            Instant start = hourFromNow(5);
            String before = assertBookable(app, start);
            List<AclBinding> access = KafkaAccess.acls(BOOKING_SERVICE, app.prefix, app.applicationId);

            broker.deleteAcls(access);
            readiness(app).awaitDown();
            broker.createAcls(access);
            readiness(app).awaitUp();

            assertBookable(app, start.plusSeconds(7200));
            assertThat(app.get(before, TEAM_A).statusCode()).isEqualTo(200);
        }
    }

    /** The service's readiness as the admin reads it (with each component's state). */
    private static Readiness readiness(BookingApp app) {
        return Readiness.of(app.server.getURI()).withToken(ADMIN).within(WAIT);
    }

    /** Books an hour at {@code start} (201) and reads it back (200); its location. */
    private static String assertBookable(BookingApp app, Instant start) {
        HttpResponse<String> created =
                app.post(TEAM_A, createBody("h200", 1, start, start.plusSeconds(3600), "team-a"));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        String location = created.headers().firstValue("Location").orElseThrow();
        HttpResponse<String> read = app.get(location, TEAM_A);
        assertThat(read.statusCode()).isEqualTo(200);
        assertThat(read(read.body())).containsEntry("state", "CONFIRMED");
        return location;
    }
}
