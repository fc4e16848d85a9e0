package io.gpuaas.system.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.local.services.ServiceReplica;
import io.gpuaas.system.reliability.support.BookingLoad;
import io.gpuaas.system.reliability.support.HttpCalls;
import io.gpuaas.system.reliability.support.Invariants;
import io.gpuaas.system.reliability.support.Mode;
import io.gpuaas.system.reliability.support.ReliabilityReport;
import io.gpuaas.system.reliability.support.ReliabilityStack;
import io.gpuaas.system.reliability.support.SystemView;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The broker is killed (SIGKILL) in the middle of booking load and started again on the same port and log
 * directory. No service is touched: each replica of each must come back UP by itself, keep working (new bookings
 * decided, quota written, samples consumed and published), and nothing it acknowledged may be lost.
 */
class BrokerRestartReliabilityIT {

    private static ReliabilityStack stack;

    @BeforeAll
    static void startStack() throws Exception {
        stack = ReliabilityStack.shared();
        stack.ensureAllHealthy(Duration.ofSeconds(180));
    }

    @Test
    void shouldRecoverEveryServiceByItselfAndLoseNothingAcknowledgedWhenTheBrokerRestarts() throws Exception {
        List<String> failures = new ArrayList<>();
        for (int restart = 1; restart <= Mode.pick(1, 2); restart++) {
            failures.addAll(restartOnce("broker" + restart + "-" + System.currentTimeMillis() % 100_000));
        }
        assertThat(failures).as("broken by a broker restart").isEmpty();
    }

    private List<String> restartOnce(String run) throws Exception {
        stack.ensureAllHealthy(Duration.ofSeconds(180));
        Map<ServiceReplica, Integer> startsBefore = new LinkedHashMap<>();
        stack.replicas().forEach(r -> startsBefore.put(r, stack.starts(r)));
        SystemView view = new SystemView(stack);
        Invariants invariants = new Invariants(stack);
        int clients = Mode.pick(3, 6);
        BookingLoad load = new BookingLoad(stack, run);
        ExecutorService pool = BookingLoad.executor(clients);
        Instant windowStart = Instant.now().plusSeconds(8);
        List<Future<?>> running = load.start(pool, clients, Mode.pick(10, 20), Duration.ofMillis(400), windowStart);
        Thread.sleep(3000);
        stack.kafka().kill();
        long killed = System.nanoTime();
        Thread.sleep(Mode.pick(3000, 8000));
        stack.kafka().restart(Duration.ofSeconds(120));
        double brokerBack = (System.nanoTime() - killed) / 1e9;
        List<String> problems = new ArrayList<>();
        Map<String, String> recovered = new LinkedHashMap<>();
        for (ServiceReplica replica : stack.replicas()) {
            try {
                stack.awaitHealthy(replica, Duration.ofSeconds(120));
                recovered.put(replica.name(), String.format("%.1f s", (System.nanoTime() - killed) / 1e9));
            } catch (IllegalStateException e) {
                problems.add(replica + " did not recover by itself: " + e.getMessage());
            }
        }
        for (Future<?> f : running) {
            f.get();
        }
        pool.shutdown();
        stack.replicas().stream()
                .filter(r -> stack.starts(r) != startsBefore.get(r) || !stack.alive(r))
                .forEach(r -> problems.add(r + " was restarted or died"));
        long wait = Duration.between(Instant.now(), windowStart.plusSeconds(22)).toMillis();
        if (wait > 0) {
            Thread.sleep(wait);
        }
        problems.addAll(invariants.check(load));
        problems.addAll(workContinues(view));
        ReliabilityReport.add(
                "broker restart",
                "SIGKILL of the broker during " + load.outcomes().size()
                        + " booking requests, restarted on the same port and log dir after " + Mode.pick(3, 8) + " s",
                "every replica of every service UP again by itself, nothing acknowledged lost, no duplicate or "
                        + "overbooking, quota = "
                        + "bookings, new work done",
                problems.isEmpty(),
                String.format(
                                "broker back after %.1f s; services UP at %s; %d retries",
                                brokerBack, recovered, load.retries())
                        + (problems.isEmpty() ? "" : "; BROKEN: " + String.join("; ", problems)));
        problems.addAll(invariants.cancelRun(run));
        return problems.stream().map(p -> run + ": " + p).toList();
    }

    /** After the restart: a new booking is decided, and both sample consumers move on. */
    private static List<String> workContinues(SystemView view) throws InterruptedException {
        List<String> problems = new ArrayList<>();
        Instant start = Instant.now().plus(Duration.ofDays(3)).truncatedTo(ChronoUnit.HOURS);
        HttpCalls.Response r = stack.http()
                .send(
                        "POST",
                        stack.url("booking-service") + "/api/v1/bookings",
                        stack.token("team-a"),
                        FuzzCases.validBooking("h200-mig-1g.18gb", "team-a", start),
                        Map.of());
        if (r.status() != 201) {
            problems.add("a new booking after the restart answered " + r.status() + " " + r.body());
        } else {
            String id = r.body().replaceAll("(?s).*?\"id\"\\s*:\\s*\"([^\"]+)\".*", "$1");
            stack.http()
                    .send(
                            "DELETE",
                            stack.url("booking-service") + "/api/v1/bookings/" + id,
                            stack.token("team-a"),
                            null,
                            Map.of());
        }
        double reclaimer = view.metric("idle-reclaimer", "gpuaas_reclaim_samples_total");
        // Only the holder of the gateway's Lease scrapes: the replicas' sum must move on, not each one's count.
        double published = view.metric("metrics-gateway", "gpuaas_gpu_samples_published_total");
        Thread.sleep(6000);
        if (view.metric("idle-reclaimer", "gpuaas_reclaim_samples_total") <= reclaimer) {
            problems.add("idle-reclaimer consumes no samples after the restart");
        }
        if (view.metric("metrics-gateway", "gpuaas_gpu_samples_published_total") <= published) {
            problems.add("metrics-gateway publishes no samples after the restart");
        }
        return problems;
    }
}
