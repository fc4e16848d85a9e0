package io.gpuaas.system.reliability.support;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.local.services.ServiceReplica;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** The promises checked after every fault, each broken one described in a sentence. */
public final class Invariants {

    private final ReliabilityStack stack;
    private final KafkaProbe kafka;
    private final SystemView view;

    public Invariants(ReliabilityStack stack) {
        this.stack = stack;
        this.kafka = stack.probe();
        this.view = new SystemView(stack);
    }

    public List<String> check(BookingLoad load) throws InterruptedException {
        List<String> problems = new ArrayList<>();
        Map<String, Booking> ledger = Ledger.bookings(kafka);
        Map<String, List<Booking>> byKey = ledger.values().stream()
                .filter(b -> b.purpose() != null && b.purpose().startsWith(load.run() + "-"))
                .collect(Collectors.groupingBy(Booking::purpose));
        for (BookingLoad.Outcome o : load.outcomes().values()) {
            List<Booking> stored = byKey.getOrDefault(o.key(), List.of());
            if (o.status() == 201
                    && (stored.isEmpty() || !stored.getFirst().id().equals(o.bookingId()))) {
                problems.add(
                        "lost: " + o.key() + " answered 201 " + o.bookingId() + " but the ledger holds " + ids(stored));
            } else if (o.status() != 201 && o.status() / 100 != 4) {
                problems.add(
                        "no final answer for " + o.key() + ": " + o.status() + " after " + o.attempts() + " attempts");
            } else if (o.status() != 201 && !stored.isEmpty()) {
                problems.add("phantom: " + o.key() + " answered " + o.status() + " but booked " + ids(stored));
            }
            if (stored.size() > 1) {
                problems.add("duplicate: " + o.key() + " booked " + stored.size() + " times " + ids(stored));
            }
        }
        Map<String, Integer> capacity =
                Map.of("h200", 8, "h200-mig-1g.18gb", 14, "h200-mig-2g.35gb", 9, "h200-mig-3g.71gb", 6);
        Ledger.peakPerPool(ledger.values()).forEach((pool, peak) -> {
            if (peak > capacity.getOrDefault(pool, 0)) {
                problems.add("overbooked " + pool + ": " + peak + " units at once, capacity " + capacity.get(pool));
            }
        });
        problems.addAll(quotaMismatches(Duration.ofSeconds(60)));
        List<String> twice = Ledger.doubleReclaims(Ledger.reclaims(kafka));
        if (!twice.isEmpty()) {
            problems.add("reclaimed twice without a resume: " + twice);
        }
        // Only the holder of the gateway's Lease scrapes, so the replicas together publish, not each one.
        if (view.metric("metrics-gateway", "gpuaas_gpu_samples_published_total") <= 0) {
            problems.add("no metrics-gateway replica publishes samples");
        }
        return problems;
    }

    /** Every booking the load was answered 201 for must be readable (200) from this booking-service replica. */
    public List<String> unreadable(BookingLoad load, ServiceReplica replica) {
        List<String> problems = new ArrayList<>();
        for (BookingLoad.Outcome o : load.outcomes().values()) {
            if (o.status() == 201) {
                HttpCalls.Response r = stack.http()
                        .get(stack.url(replica) + "/api/v1/bookings/" + o.bookingId(), stack.token(o.tenant()));
                if (r.status() != 200) {
                    problems.add(replica + " answers GET of booking " + o.bookingId() + " (201 by " + o.replica()
                            + ") with " + (r.answered() ? r.status() : r.error()));
                }
            }
        }
        return problems;
    }

    /**
     * Waits until each tenant's ClusterQueue, and the booked units on the /metrics of every running metrics-gateway
     * replica (each builds every projection), equal its active bookings.
     */
    public List<String> quotaMismatches(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<String> mismatches = new ArrayList<>();
            Map<String, Booking> ledger = Ledger.bookings(kafka);
            Instant now = Instant.now();
            for (String tenant : List.of("team-a", "team-b")) {
                Map<String, Long> expected = Ledger.activeQuota(ledger.values(), tenant, now);
                Map<String, Long> actual = view.tenantQuota(tenant);
                if (!expected.equals(actual)) {
                    mismatches.add(
                            "ClusterQueue gpuaas-" + tenant + " quota " + actual + " but active bookings " + expected);
                }
                long units =
                        expected.values().stream().mapToLong(Long::longValue).sum();
                view.metricByReplica("metrics-gateway", "gpuaas_tenant_booked_units", "tenant=\"" + tenant + "\"")
                        .forEach((replica, shown) -> {
                            if (shown != units) {
                                mismatches.add(replica + " gpuaas_tenant_booked_units{tenant=" + tenant + "} " + shown
                                        + " but " + units + " active (ledger states " + states(ledger, tenant, now)
                                        + ")");
                            }
                        });
            }
            if (mismatches.isEmpty() || System.nanoTime() > deadline) {
                return mismatches;
            }
            Thread.sleep(1000);
        }
    }

    /** Cancels the run's bookings (as admin) and answers what did not drain. */
    public List<String> cancelRun(String run) throws InterruptedException {
        for (Booking b : Ledger.bookings(kafka).values()) {
            if (b.purpose() != null
                    && b.purpose().startsWith(run + "-")
                    && b.state().holdsCapacity()) {
                stack.http()
                        .send(
                                "DELETE",
                                stack.url("booking-service") + "/api/v1/bookings/" + b.id(),
                                stack.token("admin"),
                                null,
                                Map.of());
            }
        }
        return quotaMismatches(Duration.ofSeconds(45));
    }

    private static Map<BookingState, Long> states(Map<String, Booking> ledger, String tenant, Instant now) {
        return ledger.values().stream()
                .filter(b -> b.tenant().equals(tenant) && b.activeAt(now))
                .collect(Collectors.groupingBy(Booking::state, Collectors.counting()));
    }

    private static String ids(List<Booking> bookings) {
        return bookings.stream().map(b -> b.id() + "/" + b.state()).toList().toString();
    }
}
