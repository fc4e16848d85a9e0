package io.gpuaas.booking.it;

import static io.gpuaas.events.KafkaPrincipal.BOOKING_SERVICE;

import io.gpuaas.events.Topics;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.booking.PlacedUnit;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.events.pool.PoolNode;
import io.gpuaas.testing.kafka.KafkaBroker;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One booking-service for the flexible-pool ITs of this JVM: the shipped pools plus {@code h200-flex}, two nodes of
 * one H200 each. Booking states go onto the compacted bookings topic as the decision engine writes them, with their
 * placements, so the read side is tested against what it will read whatever decides them.
 */
final class FleetFixture {

    static final String FLEX = "h200-flex";
    static final Pool POOL = Pool.flexible(
            FLEX, FLEX, "NVIDIA H200", null, List.of(new PoolNode("flex-a", 1), new PoolNode("flex-b", 1)));

    private static FleetFixture shared;

    final BookingApp app;
    final KafkaBroker broker;

    private FleetFixture(BookingApp app, KafkaBroker broker) {
        this.app = app;
        this.broker = broker;
    }

    static synchronized FleetFixture shared(KafkaBroker broker) {
        if (shared == null) {
            BookingApp app = BookingApp.start(
                    broker,
                    Map.of(
                            "gpuaas.pools-file",
                            poolsFile().toString(),
                            "gpuaas.booking.http.burst",
                            1000,
                            "gpuaas.booking.http.requests-per-second",
                            200));
            Runtime.getRuntime().addShutdownHook(new Thread(app::close));
            shared = new FleetFixture(app, broker);
        }
        return shared;
    }

    private static Path poolsFile() {
        List<Pool> pools = new ArrayList<>(PoolCatalog.load(Optional.empty()).pools());
        pools.add(POOL);
        try {
            Path file = Files.createTempFile("pools", ".json");
            Files.writeString(file, new PoolCatalog(pools).toJson());
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The start of the hour {@code hours} from now, in whole hours. */
    static Instant hoursAhead(int hours) {
        return Instant.now().truncatedTo(ChronoUnit.HOURS).plus(Duration.ofHours(hours));
    }

    /** A booking state of {@code h200-flex} as the decision engine writes it: {@code profile} null for whole GPUs. */
    static Booking booking(
            String id,
            String tenant,
            String profile,
            Instant start,
            Instant end,
            BookingState state,
            long version,
            List<PlacedUnit> units) {
        return new Booking(
                id,
                tenant,
                tenant,
                FLEX,
                FLEX,
                POOL.resourceFor(profile),
                units.size(),
                start,
                end,
                null,
                state,
                "someone",
                start.minus(Duration.ofDays(1)),
                start.minus(Duration.ofDays(1)),
                version,
                units);
    }

    /** Writes the state onto the bookings topic, keyed by its id, as booking-service. */
    void publish(Booking booking) {
        DashboardFixture.publish(broker, app, BOOKING_SERVICE, Topics.BOOKINGS, booking.id(), booking);
    }
}
