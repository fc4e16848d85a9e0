package io.gpuaas.system.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.system.reliability.support.BookingLoad;
import io.gpuaas.system.reliability.support.Invariants;
import io.gpuaas.system.reliability.support.Mode;
import io.gpuaas.system.reliability.support.ReliabilityReport;
import io.gpuaas.system.reliability.support.ReliabilityStack;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code kill -9} of each service in the middle of booking load, then a restart: no booking lost or duplicated, no
 * overbooking, no reclaim applied twice, every tenant's ClusterQueue quota equal to its active bookings again, and
 * metrics-gateway publishing samples and booked units again. Bounded mode kills all four at once, once; full mode
 * kills each service alone twice per round, then all four together.
 */
class KillNineReliabilityIT {

    private static ReliabilityStack stack;
    private static Invariants invariants;

    @BeforeAll
    static void startStack() throws Exception {
        stack = ReliabilityStack.shared();
        stack.ensureAllHealthy(Duration.ofSeconds(180));
        invariants = new Invariants(stack);
        try (var yaml = KillNineReliabilityIT.class.getResourceAsStream("/reliability/raycluster-idle.yaml")) {
            var ray = io.fabric8.kubernetes.client.utils.Serialization.unmarshal(yaml,
                    io.fabric8.kubernetes.api.model.GenericKubernetesResource.class);
            var rays = stack.kube().genericKubernetesResources(io.gpuaas.testing.k8s.GpuaasCrd.RAY_CLUSTER.context()).inNamespace("team-a");
            if (rays.withName("rel-idle").get() == null) {
                rays.resource(ray).create();
            }
        }
    }

    @Test
    void shouldLoseDuplicateAndOverbookNothingWhenServicesAreKilledMidLoad() throws Exception {
        List<List<String>> rounds = new ArrayList<>();
        if (Mode.full()) {
            ReliabilityStack.serviceNames().forEach(s -> rounds.add(List.of(s)));
        }
        rounds.add(ReliabilityStack.serviceNames());
        List<String> failures = new ArrayList<>();
        int n = 0;
        for (List<String> victims : rounds) {
            failures.addAll(round("kill" + (++n) + "-" + System.currentTimeMillis() % 100_000, victims,
                    victims.size() == 1 ? 2 : 1));
        }
        assertThat(failures).as("invariants broken by kill -9").isEmpty();
    }

    private List<String> round(String run, List<String> victims, int kills) throws Exception {
        stack.ensureAllHealthy(Duration.ofSeconds(180));
        int clients = Mode.pick(4, 6);
        int perClient = Mode.pick(12, 25);
        // Four MIG slices for team-a admit its RayClusters demo-ray and rel-idle (2 workers each, queued in that
        // order); rel-idle's GPUs are pinned idle, so the reclaimer's window closes during the round and a kill can
        // land between its decision and its patch.
        Instant now = Instant.now().plusSeconds(2).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        stack.http().send("POST", stack.url("booking-service") + "/api/v1/bookings", stack.token("team-a"),
                "{\"pool\":\"h200-mig-1g.18gb\",\"quantity\":4,\"start\":\"" + now + "\",\"end\":\"" + now.plusSeconds(600)
                        + "\",\"namespace\":\"team-a\",\"purpose\":\"" + run + "-reclaim\"}", java.util.Map.of());
        BookingLoad load = new BookingLoad(stack, run);
        ExecutorService pool = BookingLoad.executor(clients);
        Instant windowStart = Instant.now().plusSeconds(8);
        List<Future<?>> running = load.start(pool, clients, perClient, Duration.ofMillis(Mode.pick(400, 250)), windowStart);
        List<String> recovery = new ArrayList<>();
        for (int k = 0; k < kills; k++) {
            Thread.sleep(Mode.pick(4000, 3000));
            for (String victim : victims) {
                stack.kill(victim);
            }
            long killed = System.nanoTime();
            for (String victim : victims) {
                stack.start(victim);
            }
            for (String victim : victims) {
                stack.awaitHealthy(victim, Duration.ofSeconds(150));
                recovery.add(victim + " " + (System.nanoTime() - killed) / 100_000_000 / 10.0 + " s");
            }
        }
        for (Future<?> f : running) {
            f.get();
        }
        pool.shutdown();
        // Every booking of the run has started once its window start (≤ windowStart + 20 s) has passed.
        long wait = Duration.between(Instant.now(), windowStart.plusSeconds(22)).toMillis();
        if (wait > 0) {
            Thread.sleep(wait);
        }
        List<String> problems = new ArrayList<>(invariants.check(load));
        problems.addAll(reclaimedOnce());
        String outcome = load.outcomes().values().stream().collect(Collectors.groupingBy(BookingLoad.Outcome::status,
                java.util.TreeMap::new, Collectors.counting())).toString();
        ReliabilityReport.add("kill -9", "SIGKILL of " + victims + " ×" + kills + " during " + clients * perClient
                + " booking requests from " + clients + " clients (Idempotency-Key, retried until a final answer)",
                "no booking lost or duplicated, no overbooking, quota = active bookings, booked units on /metrics, "
                        + "no reclaim twice, samples flowing", problems.isEmpty(),
                "answers " + outcome + ", " + load.retries() + " retries; UP again after " + recovery
                        + (problems.isEmpty() ? "" : "; BROKEN: " + String.join("; ", problems)));
        stack.http().send("POST", stack.url("idle-reclaimer") + "/api/v1/workloads/team-a/RayCluster/rel-idle/resume",
                stack.token("team-a"), null, java.util.Map.of());
        List<String> left = invariants.cancelRun(run);
        ReliabilityReport.add("kill -9", "cancel every booking of " + run + " after the kills", "quota drains to the "
                + "bookings still active", left.isEmpty(), left.isEmpty() ? "drained" : String.join("; ", left));
        problems.addAll(left);
        return problems.stream().map(p -> run + " " + victims + ": " + p).toList();
    }


    /** rel-idle must be reclaimed in the round (else the check proves nothing), and exactly once. */
    private static List<String> reclaimedOnce() throws InterruptedException {
        io.gpuaas.system.reliability.support.KafkaProbe kafka = stack.probe();
        long deadline = System.nanoTime() + Duration.ofSeconds(Mode.pick(60, 90)).toNanos();
        while (true) {
            var steps = io.gpuaas.system.reliability.support.Ledger.reclaims(kafka);
            List<String> twice = io.gpuaas.system.reliability.support.Ledger.doubleReclaims(steps);
            if (!twice.isEmpty()) {
                return List.of("reclaimed twice without a resume in between: " + twice);
            }
            boolean demoRay = steps.entrySet().stream().anyMatch(e -> e.getKey().equals("team-a/RayCluster/rel-idle") && !e.getValue().isEmpty()
                    && e.getValue().getLast() instanceof io.gpuaas.events.reclaim.ReclaimEvent.Reclaimed);
            if (demoRay) {
                return List.of();
            }
            if (System.nanoTime() > deadline) {
                return List.of("team-a/rel-idle (pinned idle) was not reclaimed within the round; steps: "
                        + steps.getOrDefault("team-a/RayCluster/rel-idle", List.of()).stream().map(e -> e.getClass().getSimpleName()).toList());
            }
            Thread.sleep(2000);
        }
    }
}
