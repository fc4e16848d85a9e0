package io.gpuaas.bench.booking;

import io.gpuaas.booking.model.BookingDecider;
import io.gpuaas.booking.model.BookingLedger;
import io.gpuaas.booking.model.BookingPolicy;
import io.gpuaas.booking.model.Decision;
import io.gpuaas.booking.model.InMemoryBookingRepository;
import io.gpuaas.booking.model.InMemoryWaitlistRepository;
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
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * The openb replay of {@link OpenbReplay} with every request willing to wait: each carries a latest start of its start
 * + {@code patience} (6 h), so a request the decider refuses is booked at the first later start that fits within it,
 * or waits on the waitlist until capacity frees or it expires (the clock, {@code advance}, runs before each request).
 * Reports the share of the refused GPU-hours (MIG weighted by {@link Pool#gpuFraction()}) the waitlist books.
 */
final class WaitlistReplay {

    private static final Instant EPOCH = Instant.parse("2030-01-01T00:00:00Z");
    private static final long ALIGN = 900;

    /**
     * @param requests         GPU pods replayed
     * @param refused          requests the decider refused as asked (at their own start)
     * @param refusedGpuHours  their GPU-hours
     * @param bookedLater      refused requests the waitlist booked (at once at a later start, or when room freed)
     * @param bookedGpuHours   their GPU-hours
     * @param expired          entries that reached their latest start without room
     * @param decideMicrosP99  the replay's own p99 per decision (decide + apply + settle), in microseconds
     */
    record Result(
            int requests,
            int refused,
            double refusedGpuHours,
            int bookedLater,
            double bookedGpuHours,
            int expired,
            double decideMicrosP99) {

        double share() {
            return refusedGpuHours == 0 ? 0 : bookedGpuHours / refusedGpuHours;
        }
    }

    private final PoolCatalog pools;
    private final Duration patience;

    WaitlistReplay(PoolCatalog pools, Duration patience) {
        this.pools = pools;
        this.patience = patience;
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
        BookingLedger ledger =
                new BookingLedger(new InMemoryBookingRepository(), pools, new InMemoryWaitlistRepository());
        Map<String, Double> waitingHours = new HashMap<>();
        int refused = 0;
        int bookedLater = 0;
        int expired = 0;
        double refusedHours = 0;
        double bookedHours = 0;
        long[] nanos = new long[pods.size()];
        int n = 0;
        for (String[] f : pods) {
            long created = Long.parseLong(f[8]);
            long deleted = Math.max(Long.parseLong(f[9]), created + 1);
            String pool = OpenbReplay.poolFor(Integer.parseInt(f[4]));
            Instant start = EPOCH.plusSeconds(created / ALIGN * ALIGN);
            Instant end = EPOCH.plusSeconds((deleted + ALIGN - 1) / ALIGN * ALIGN);
            Caller caller = new Caller(f[0], OpenbReplay.tenantOf(f[0]), false);
            int quantity = Integer.parseInt(f[3]);
            CreateBooking command = new CreateBooking(
                    UUID.randomUUID().toString(),
                    null,
                    caller,
                    pool,
                    UUID.randomUUID().toString(),
                    caller.tenant(),
                    quantity,
                    start,
                    end,
                    f[6],
                    start,
                    null,
                    null,
                    null,
                    start.plus(patience));
            long began = System.nanoTime();
            List<Decision> steps = new ArrayList<>();
            Decision tick = decider.advance(ledger, start);
            ledger.apply(tick);
            steps.add(tick);
            Decision decision = decider.decide(command, ledger, start);
            ledger.apply(decision);
            steps.add(decision);
            steps.addAll(decider.settleWaitlist(decision, ledger, start));
            nanos[n++] = System.nanoTime() - began;
            double hours = gpuHours(pool, quantity, Duration.between(start, end));
            BookingEvent answer = decision.events().getFirst();
            if (answer instanceof BookingEvent.BookingConfirmed c) {
                if (!c.booking().start().equals(start)) {
                    refused++;
                    refusedHours += hours;
                    bookedLater++;
                    bookedHours += hours;
                }
            } else {
                refused++;
                refusedHours += hours;
                if (answer instanceof BookingEvent.BookingWaitlisted w) {
                    waitingHours.put(w.entry().id(), hours);
                }
            }
            for (Decision step : steps) {
                for (BookingEvent e : step.events()) {
                    if (e instanceof BookingEvent.WaitlistEnded ended) {
                        Double h = waitingHours.remove(ended.entry().id());
                        if (h == null) {
                            continue;
                        }
                        switch (ended.entry().state()) {
                            case BOOKED -> {
                                bookedLater++;
                                bookedHours += h;
                            }
                            case EXPIRED -> expired++;
                            default -> {}
                        }
                    }
                }
            }
        }
        java.util.Arrays.sort(nanos, 0, n);
        double p99 = n == 0 ? 0 : nanos[Math.min(n - 1, (int) Math.ceil(n * 0.99) - 1)] / 1000.0;
        return new Result(pods.size(), refused, refusedHours, bookedLater, bookedHours, expired, p99);
    }

    private double gpuHours(String pool, int quantity, Duration window) {
        double fraction = pools.find(pool).map(Pool::gpuFraction).orElse(1.0);
        return quantity * fraction * window.toSeconds() / 3600.0;
    }

    /** {@code WaitlistReplay <openb-pod-list.csv>}: both fleets, printed as the Markdown the booking report holds. */
    public static void main(String[] args) throws IOException {
        Path csv = Path.of(args.length > 0 ? args[0] : "../shared/data/openb-pod-list.csv");
        StringBuilder md = new StringBuilder();
        report(md, csv);
        System.out.print(md);
    }

    static void report(StringBuilder md, Path csv) throws IOException {
        md.append("### The openb replay with a waitlist (every request willing to start up to 6 h later)\n\n")
                .append("| fleet | requests | refused as asked | refused GPU-hours | booked by the waitlist |"
                        + " their GPU-hours | share of refused GPU-hours | expired | replay p99 per decision µs |\n")
                .append("|---|---|---|---|---|---|---|---|---|\n");
        row(md, "openb 6,212 H200s", new WaitlistReplay(OpenbReplay.POOLS, Duration.ofHours(6)).run(csv));
        row(
                md,
                "local 16 H200s",
                new WaitlistReplay(PoolCatalog.load(java.util.Optional.empty()), Duration.ofHours(6)).run(csv));
        md.append(
                "\nIn-process, on the real decider (decide + apply + settle, the clock's advance before each request);"
                        + " the trace has no cancels or early ends, so what the waitlist books it books at a later start at"
                        + " admission, and entries still waiting then expire. Decision p99 at 500/s and the raw round trip of"
                        + " the same run are in the tables above.\n\n");
    }

    private static void row(StringBuilder md, String fleet, Result r) {
        md.append(String.format(
                Locale.ROOT,
                "| %s | %d | %d | %.0f | %d | %.0f | %.1f %% | %d | %.0f |%n",
                fleet,
                r.requests(),
                r.refused(),
                r.refusedGpuHours(),
                r.bookedLater(),
                r.bookedGpuHours(),
                100 * r.share(),
                r.expired(),
                r.decideMicrosP99()));
    }
}
