package io.gpuaas.bench.booking;

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
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * Replays the Alibaba openb pod list (Weng et al., USENIX ATC '23) as bookings: each GPU pod becomes a booking
 * made at its creation time for [creation, deletion), on the pool its {@code gpu_milli} maps to, decided in
 * creation order by the real decider with the default policy (15 min alignment, 14 day max duration).
 */
final class OpenbReplay {

    /** openb's 6,212 GPUs as H200s: 5,812 whole, 400 partitioned (100 as 7×1g, 150 as 3×2g, 150 as 2×3g). */
    static final PoolCatalog POOLS = new PoolCatalog(List.of(
            new Pool("h200", "h200", "nvidia.com/gpu", 5812, "NVIDIA H200", null),
            new Pool("h200-mig-1g.18gb", "h200-mig-1g.18gb", "nvidia.com/mig-1g.18gb", 700, "NVIDIA H200", "1g.18gb"),
            new Pool("h200-mig-2g.35gb", "h200-mig-2g.35gb", "nvidia.com/mig-2g.35gb", 450, "NVIDIA H200", "2g.35gb"),
            new Pool("h200-mig-3g.71gb", "h200-mig-3g.71gb", "nvidia.com/mig-3g.71gb", 300, "NVIDIA H200", "3g.71gb")));

    private final PoolCatalog pools;

    OpenbReplay(PoolCatalog pools) {
        this.pools = pools;
    }

    private static final Instant EPOCH = Instant.parse("2030-01-01T00:00:00Z");
    private static final long ALIGN = 900;

    record PoolStats(int accepted, int rejected, double bookedUnitHours, double capacityUnitHours) {}

    record Result(
            int gpuPods,
            int accepted,
            Map<String, Integer> rejectedByReason,
            Map<String, PoolStats> pools,
            double horizonHours) {}

    /** gpu_milli of one GPU onto the smallest H200 slice that holds it (compute sevenths). */
    static String poolFor(int gpuMilli) {
        if (gpuMilli <= 1000 / 7) {
            return "h200-mig-1g.18gb";
        }
        if (gpuMilli <= 2000 / 7) {
            return "h200-mig-2g.35gb";
        }
        if (gpuMilli <= 3000 / 7) {
            return "h200-mig-3g.71gb";
        }
        return "h200";
    }

    /** The tenant a pod books for: one of 16, by the hash of its name (the trace names no owner). */
    static String tenantOf(String podName) {
        return "tenant-" + (podName.hashCode() & 15);
    }

    Result run(Path csv) throws IOException {
        List<String[]> pods = new ArrayList<>();
        List<String> lines = Files.readAllLines(csv);
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",", -1);
            if (Integer.parseInt(f[3]) > 0) {
                pods.add(f);
            }
        }
        pods.sort(Comparator.comparingLong(f -> Long.parseLong(f[8])));
        BookingDecider decider = new BookingDecider(pools, BookingPolicy.DEFAULT);
        BookingLedger ledger = new BookingLedger(new InMemoryBookingRepository());
        Map<String, Integer> rejected = new TreeMap<>();
        Map<String, int[]> counts = new LinkedHashMap<>();
        Map<String, Double> unitHours = new LinkedHashMap<>();
        long last = 0;
        int accepted = 0;
        for (String[] f : pods) {
            long created = Long.parseLong(f[8]);
            long deleted = Math.max(Long.parseLong(f[9]), created + 1);
            last = Math.max(last, deleted);
            String pool = poolFor(Integer.parseInt(f[4]));
            Instant start = EPOCH.plusSeconds(created / ALIGN * ALIGN);
            Instant end = EPOCH.plusSeconds((deleted + ALIGN - 1) / ALIGN * ALIGN);
            Caller caller = new Caller(f[0], tenantOf(f[0]), false);
            CreateBooking command = new CreateBooking(
                    UUID.randomUUID().toString(),
                    null,
                    caller,
                    pool,
                    UUID.randomUUID().toString(),
                    caller.tenant(),
                    Integer.parseInt(f[3]),
                    start,
                    end,
                    f[6],
                    start);
            Decision decision = decider.decide(command, ledger, start);
            ledger.apply(decision);
            int[] c = counts.computeIfAbsent(pool, p -> new int[2]);
            if (decision.events().getFirst() instanceof BookingEvent.BookingRejected r) {
                rejected.merge(r.reason(), 1, Integer::sum);
                c[1]++;
            } else {
                accepted++;
                c[0]++;
                unitHours.merge(
                        pool, command.quantity() * Duration.between(start, end).toSeconds() / 3600.0, Double::sum);
            }
        }
        double horizon = last / 3600.0;
        Map<String, PoolStats> stats = new LinkedHashMap<>();
        for (Pool p : pools.pools()) {
            int[] c = counts.getOrDefault(p.id(), new int[2]);
            stats.put(p.id(), new PoolStats(c[0], c[1], unitHours.getOrDefault(p.id(), 0.0), p.capacity() * horizon));
        }
        return new Result(pods.size(), accepted, rejected, stats, horizon);
    }
}
