package io.gpuaas.bench.mig;

import io.gpuaas.booking.placement.PlacementOutcome;
import io.gpuaas.booking.placement.PlacementRequest;
import io.gpuaas.events.geometry.GpuGeometry;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;

/**
 * What deciding one book-now booking costs on a large flexible fleet
 * ({@link io.gpuaas.booking.placement.FleetPlacements#place}, no room-making) beside a static fleet's first fit
 * ({@link StaticFleet#place}), for the same stream of bookings at the same moments.
 *
 * <p>The stream: pods drawn at random (seeded) from the trace's GPU pods, each keeping its unit, quantity and
 * duration, the duration capped at 14 days (booking-service's {@code max-duration}); arrivals a Poisson process whose
 * rate offers {@code load} times the fleet's GPUs in GPU-seconds per second.
 *
 * <ol>
 *   <li><b>Fill</b> (untimed): the fleets as that stream leaves them once it has run for longer than its longest
 *       booking, without running it that long. Bookings still held at a random instant are drawn in proportion to
 *       their GPU-seconds, each with a uniform part of its duration left, all starting at 0, until they ask for
 *       {@code fill} of the fleet's compute slices.
 *   <li><b>Warm-up</b> (untimed): {@code warmup} bookings of the stream, for the JIT.
 *   <li><b>Rounds</b>: {@code rounds} × {@code perRound} timed bookings. Each booking goes to both fleets back to
 *       back, which one first alternating, so load from other jobs on the machine falls on both alike.
 * </ol>
 */
final class PlacementCost {

    /** The longest booking the stream offers: booking-service's default {@code max-duration}, as the replay's. */
    static final MaxDuration MAX_DURATION = MaxDuration.shipped();

    /** A flexible placement slower than this is looked at: did a garbage collection run while it did? */
    static final long SLOW_NS = 1_000_000;

    /**
     * One round's per-booking wall-clock times in nanoseconds, refusals, how busy each fleet was at its end (compute
     * slices held over the fleet's), the share of the round's wall-clock time the measuring thread was on a core, and
     * how many flexible placements took over {@link #SLOW_NS}, how many of those overlapped a garbage collection, and
     * the bytes the measuring thread allocated per booking (both fleets' decisions and making the booking; the static
     * first fit allocates one small array).
     */
    record Round(
            Histogram flexible,
            Histogram fixed,
            int bookings,
            int flexibleRefused,
            int fixedRefused,
            double flexibleBusy,
            double fixedBusy,
            double onCpu,
            int flexibleSlow,
            int flexibleSlowInGc,
            double allocatedPerBooking) {}

    /** What the measurement ran on, and how busy the fleets were after the fill. */
    record Setup(
            int gpus,
            String staticMix,
            double load,
            double fill,
            int filled,
            int warmup,
            double filledBusyFlexible,
            double filledBusyFixed) {}

    record Result(Setup setup, List<Round> rounds) {}

    private PlacementCost() {}

    static Result measure(
            List<Ask> trace,
            GpuGeometry geometry,
            int gpus,
            MixSearch.Mix staticMix,
            double load,
            double fill,
            int warmup,
            int perRound,
            int rounds,
            long seed) {
        int c = geometry.computeSlices();
        Map<String, Integer> computeOf = new HashMap<>();
        trace.forEach(a -> computeOf.put(a.profile(), a.compute()));
        double[] work = new double[trace.size()]; // cumulative GPU-seconds, for drawing what is held at an instant
        double sum = 0;
        for (int i = 0; i < work.length; i++) {
            Ask a = trace.get(i);
            sum += a.quantity() * (double) a.compute() / c * duration(a);
            work[i] = sum;
        }
        double meanGap = sum / trace.size() / (load * gpus); // seconds between arrivals
        SplittableRandom random = new SplittableRandom(seed);
        FlexibleFleet flexible = new FlexibleFleet(geometry, gpus, false);
        StaticFleet fixed = staticMix.fleet();
        int n = 0;

        long askedSlices = 0;
        while (askedSlices < fill * gpus * c) {
            Ask drawn = trace.get(drawByWork(work, random.nextDouble() * sum));
            long left = 1 + (long) (random.nextDouble() * duration(drawn));
            Ask ask = new Ask("f" + n++, drawn.profile(), drawn.compute(), drawn.quantity(), 0, left);
            fixed.place(ask);
            flexible.placeOnly(FlexibleFleet.request(ask));
            askedSlices += (long) ask.quantity() * ask.compute();
        }
        int filled = n;
        Setup setup = new Setup(
                gpus,
                staticMix.describe(),
                load,
                fill,
                filled,
                warmup,
                flexible.busyShare(0),
                fixed.busyShare(0, computeOf, c));

        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        double clock = 0;
        List<Round> out = new ArrayList<>();
        for (int round = 0; round <= rounds; round++) {
            int count = round == 0 ? warmup : perRound;
            Histogram flexTimes = new Histogram(3);
            Histogram fixedTimes = new Histogram(3);
            int flexRefused = 0;
            int fixedRefused = 0;
            int slow = 0;
            int slowInGc = 0;
            long cpu0 = threads.getCurrentThreadCpuTime();
            long bytes0 = allocated(threads);
            long wall0 = System.nanoTime();
            for (int i = 0; i < count; i++, n++) {
                clock += -Math.log(1 - random.nextDouble()) * meanGap;
                Ask drawn = trace.get(random.nextInt(trace.size()));
                long start = (long) clock;
                Ask ask = new Ask(
                        "c" + n, drawn.profile(), drawn.compute(), drawn.quantity(), start, start + duration(drawn));
                PlacementRequest request = FlexibleFleet.request(ask);
                long flexNs;
                long fixedNs;
                boolean flexOk;
                boolean fixedOk;
                long gc0 = collections();
                if ((n & 1) == 0) {
                    long t0 = System.nanoTime();
                    fixedOk = fixed.place(ask);
                    long t1 = System.nanoTime();
                    flexOk = flexible.placeOnly(request) instanceof PlacementOutcome.Placed;
                    long t2 = System.nanoTime();
                    fixedNs = t1 - t0;
                    flexNs = t2 - t1;
                } else {
                    long t0 = System.nanoTime();
                    flexOk = flexible.placeOnly(request) instanceof PlacementOutcome.Placed;
                    long t1 = System.nanoTime();
                    fixedOk = fixed.place(ask);
                    long t2 = System.nanoTime();
                    flexNs = t1 - t0;
                    fixedNs = t2 - t1;
                }
                if (flexNs > SLOW_NS) {
                    slow++;
                    slowInGc += collections() > gc0 ? 1 : 0;
                }
                flexTimes.recordValue(Math.max(1, flexNs));
                fixedTimes.recordValue(Math.max(1, fixedNs));
                flexRefused += flexOk ? 0 : 1;
                fixedRefused += fixedOk ? 0 : 1;
            }
            double onCpu = (double) (threads.getCurrentThreadCpuTime() - cpu0) / (System.nanoTime() - wall0);
            double bytesPerBooking = (double) (allocated(threads) - bytes0) / count;
            if (round > 0) { // round 0 is the warm-up
                long now = (long) clock;
                out.add(new Round(
                        flexTimes,
                        fixedTimes,
                        count,
                        flexRefused,
                        fixedRefused,
                        flexible.busyShare(now),
                        fixed.busyShare(now, computeOf, c),
                        onCpu,
                        slow,
                        slowInGc,
                        bytesPerBooking));
            }
        }
        return new Result(setup, out);
    }

    /** Bytes this thread allocated so far, where the JVM counts them (HotSpot does), else NaN's stand-in 0. */
    private static long allocated(ThreadMXBean threads) {
        return threads instanceof com.sun.management.ThreadMXBean hotspot
                ? hotspot.getCurrentThreadAllocatedBytes()
                : 0;
    }

    private static long collections() {
        long n = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            n += gc.getCollectionCount();
        }
        return n;
    }

    private static long duration(Ask a) {
        return Math.min(MAX_DURATION.limit().toSeconds(), a.end() - a.start());
    }

    /** The index whose cumulative work first reaches {@code x}. */
    static int drawByWork(double[] cumulative, double x) {
        int lo = 0;
        int hi = cumulative.length - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (cumulative[mid] < x) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
