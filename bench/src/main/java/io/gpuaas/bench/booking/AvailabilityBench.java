package io.gpuaas.bench.booking;

import io.gpuaas.booking.config.HttpLimits;
import io.gpuaas.booking.http.Availability;
import io.gpuaas.booking.http.FlexiblePools;
import io.gpuaas.booking.kafka.BookingView;
import io.gpuaas.booking.model.BookingDecider;
import io.gpuaas.booking.model.BookingLedger;
import io.gpuaas.booking.model.BookingPolicy;
import io.gpuaas.booking.model.Decision;
import io.gpuaas.booking.model.InMemoryBookingRepository;
import io.gpuaas.events.booking.BookingCommand.CreateBooking;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.Caller;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.HdrHistogram.Histogram;

/**
 * Availability queries (7 days in hourly steps plus a first-fit search) against a read view holding 100,000
 * future bookings, the way the HTTP endpoint computes them (without the HTTP layer). The bookings are made by
 * the real decider, so the view holds a valid, capacity-respecting book.
 */
final class AvailabilityBench {

    /** A cluster sized for the scale target: 10,000 GPUs' worth of pools. */
    static final PoolCatalog POOLS = new PoolCatalog(List.of(
            new Pool("h200", "h200", "nvidia.com/gpu", 6000, "NVIDIA H200", null),
            new Pool("h200-mig-1g.18gb", "h200-mig-1g.18gb", "nvidia.com/mig-1g.18gb", 9800, "NVIDIA H200", "1g.18gb"),
            new Pool("h200-mig-2g.35gb", "h200-mig-2g.35gb", "nvidia.com/mig-2g.35gb", 4200, "NVIDIA H200", "2g.35gb"),
            new Pool(
                    "h200-mig-3g.71gb", "h200-mig-3g.71gb", "nvidia.com/mig-3g.71gb", 2800, "NVIDIA H200", "3g.71gb")));

    record Result(int bookings, long buildMillis, Histogram queryMicros, int breakpointsH200) {}

    Result run(int bookings, int queries) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.HOURS);
        BookingDecider decider = new BookingDecider(POOLS, BookingPolicy.DEFAULT);
        BookingLedger ledger = new BookingLedger(new InMemoryBookingRepository());
        BookingView view = new BookingView();
        Random random = new Random(7);
        long started = System.nanoTime();
        int confirmed = 0;
        for (long i = 0; confirmed < bookings; i++) {
            Pool pool = POOLS.pools().get((int) (i % 4));
            Instant start = now.plus(Duration.ofMinutes(15L * (4 + random.nextInt(85 * 96))));
            Instant end = start.plus(Duration.ofMinutes(15L * (1 + random.nextInt(96))));
            Caller caller = new Caller("bench", "team-" + random.nextInt(1000), false);
            CreateBooking command = new CreateBooking(
                    UUID.randomUUID().toString(),
                    null,
                    caller,
                    pool.id(),
                    UUID.randomUUID().toString(),
                    caller.tenant(),
                    1 + random.nextInt(8),
                    start,
                    end,
                    null,
                    now);
            Decision decision = decider.decide(command, ledger, now);
            ledger.apply(decision);
            if (decision.events().getFirst() instanceof BookingEvent.BookingConfirmed c) {
                view.upsert(c.booking());
                confirmed++;
            }
        }
        long buildMillis = (System.nanoTime() - started) / 1_000_000;
        Availability availability =
                new Availability(view, decider, new FlexiblePools(POOLS, view), new HttpLimits(20, 100, 500, 2000));
        Histogram histogram = new Histogram(3);
        for (int q = 0; q < queries + 1000; q++) {
            Pool pool = POOLS.pools().get(q % 4);
            Instant from = now.plus(Duration.ofHours(random.nextInt(80 * 24)));
            long t0 = System.nanoTime();
            Availability.Report report = availability.report(
                    pool,
                    new Availability.Query(
                            from,
                            from.plus(Duration.ofDays(7)),
                            Duration.ofHours(1),
                            1 + random.nextInt(16),
                            Duration.ofHours(1 + random.nextInt(8))),
                    now);
            long micros = (System.nanoTime() - t0) / 1_000;
            if (q >= 1000 && report.slots().size() == 168) {
                histogram.recordValue(Math.max(1, micros));
            }
        }
        int breakpoints = view.withTimeline("h200", t -> t.breakpoints());
        return new Result(view.size(), buildMillis, histogram, breakpoints);
    }
}
