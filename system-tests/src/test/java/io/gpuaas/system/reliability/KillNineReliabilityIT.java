package io.gpuaas.system.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.local.services.ServiceReplica;
import io.gpuaas.system.reliability.support.BookingLoad;
import io.gpuaas.system.reliability.support.HttpCalls;
import io.gpuaas.system.reliability.support.Invariants;
import io.gpuaas.system.reliability.support.Ledger;
import io.gpuaas.system.reliability.support.Mode;
import io.gpuaas.system.reliability.support.ReclaimLoad;
import io.gpuaas.system.reliability.support.ReliabilityReport;
import io.gpuaas.system.reliability.support.ReliabilityStack;
import io.gpuaas.system.reliability.support.ScaleWrites;
import io.gpuaas.system.reliability.support.SystemView;
import io.gpuaas.testing.k8s.GpuaasCrd;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code kill -9} of one of the two replicas of a service in the middle of work, the other replica carrying on:
 * under booking load (one replica of every service at once; full mode also each service alone, both replicas in
 * turn) no booking lost or duplicated, no overbooking, no reclaim applied twice, every tenant's ClusterQueue quota
 * equal to its active bookings, HTTP answered by the survivors; under reclaim load (idle workloads whose windows
 * close around the kill of an idle-reclaimer replica) every workload reclaimed exactly once.
 */
class KillNineReliabilityIT {

    private static ReliabilityStack stack;
    private static Invariants invariants;
    private static SystemView view;

    @BeforeAll
    static void startStack() throws Exception {
        stack = ReliabilityStack.shared();
        stack.ensureAllHealthy(Duration.ofSeconds(180));
        invariants = new Invariants(stack);
        view = new SystemView(stack);
        try (var yaml = KillNineReliabilityIT.class.getResourceAsStream("/reliability/raycluster-idle.yaml")) {
            var ray = Serialization.unmarshal(yaml, GenericKubernetesResource.class);
            var rays = stack.kube()
                    .genericKubernetesResources(GpuaasCrd.RAY_CLUSTER.context())
                    .inNamespace("team-a");
            if (rays.withName("rel-idle").get() == null) {
                rays.resource(ray).create();
            }
        }
    }

    @Test
    void shouldLoseDuplicateAndOverbookNothingWhenOneReplicaOfEveryServiceIsKilledMidLoad() throws Exception {
        List<List<String>> rounds = new ArrayList<>();
        if (Mode.full()) {
            ReliabilityStack.serviceNames().forEach(s -> rounds.add(List.of(s)));
        }
        rounds.add(ReliabilityStack.serviceNames());
        List<String> failures = new ArrayList<>();
        int n = 0;
        for (List<String> services : rounds) {
            failures.addAll(bookingRound(
                    "kill" + (++n) + "-" + System.currentTimeMillis() % 100_000,
                    services,
                    Mode.pick(1, ReliabilityStack.REPLICAS)));
        }
        assertThat(failures).as("invariants broken by kill -9").isEmpty();
    }

    @Test
    void shouldReclaimEveryIdleWorkloadExactlyOnceWhenAReclaimerReplicaIsKilledMidReclaim() throws Exception {
        stack.ensureAllHealthy(Duration.ofSeconds(180));
        String run = "reclaim-" + System.currentTimeMillis() % 100_000;
        List<String> problems = new ArrayList<>();
        try (ScaleWrites writes = ScaleWrites.watch(stack.kube())) {
            // At most 4 Ray clusters (two 2g.35gb workers each, 9 such slices) and 6 InferenceServices (one 3g.71gb).
            ReclaimLoad load =
                    ReclaimLoad.create(stack.kube(), run, Mode.pick(3, 4), Mode.pick(3, 5), Duration.ofSeconds(2));
            Map<ServiceReplica, Double> windowWork = windowSamples();
            load.awaitFirstReclaim(writes, Duration.ofSeconds(90));
            ServiceReplica victim = busiest(windowWork, windowSamples());
            List<ReclaimLoad.Outcome> before = load.outcomes(stack.probe(), writes);
            stack.kill(victim);
            List<ReclaimLoad.Outcome> survivor = load.awaitReclaimed(stack.probe(), writes, Duration.ofSeconds(120));
            survivor.forEach(o -> problems.addAll(o.problems()));
            stack.start(victim);
            stack.awaitHealthy(victim, Duration.ofSeconds(150));
            Thread.sleep(8000); // the restarted replica rejoins the group: tasks move back, stores restore
            List<ReclaimLoad.Outcome> after = load.outcomes(stack.probe(), writes);
            after.forEach(o -> problems.addAll(
                    o.problems().stream().map(p -> "after the restart: " + p).toList()));
            List<String> resumes = load.resumeAll(stack);
            problems.addAll(resumes);
            ReliabilityReport.add(
                    "kill -9",
                    "reclaim load: " + load.keys().size() + " idle Ray clusters and "
                            + "InferenceServices created 2 s apart; SIGKILL of " + victim
                            + " (the replica with the most "
                            + "window work) after the first reclaim, restarted once all were reclaimed",
                    "every workload reclaimed exactly once (one Reclaimed event, one scale-down and one stored state "
                            + "on the object), also after the restart; resumes answered by both replicas",
                    problems.isEmpty(),
                    "at the kill "
                            + before.stream()
                                    .mapToInt(ReclaimLoad.Outcome::scaleDowns)
                                    .sum()
                            + " scale-downs seen and "
                            + before.stream()
                                    .mapToInt(ReclaimLoad.Outcome::reclaimed)
                                    .sum()
                            + " Reclaimed events committed; after the restart "
                            + ReclaimLoad.summary(after)
                            + (problems.isEmpty() ? "" : "; BROKEN: " + String.join("; ", problems)));
            load.delete();
        }
        assertThat(problems).as("reclaims under kill -9 of a reclaimer replica").isEmpty();
    }

    private List<String> bookingRound(String run, List<String> services, int kills) throws Exception {
        stack.ensureAllHealthy(Duration.ofSeconds(180));
        int clients = Mode.pick(4, 6);
        int perClient = Mode.pick(12, 25);
        // Four MIG slices for team-a admit its RayClusters demo-ray and rel-idle (2 workers each, queued in that
        // order); rel-idle's GPUs are pinned idle, so the reclaimer's window closes during the round and a kill can
        // land between its decision and its patch.
        Instant now = Instant.now().plusSeconds(2).truncatedTo(ChronoUnit.SECONDS);
        stack.http()
                .send(
                        "POST",
                        stack.url("booking-service") + "/api/v1/bookings",
                        stack.token("team-a"),
                        "{\"pool\":\"h200-mig-1g.18gb\",\"quantity\":4,\"start\":\"" + now + "\",\"end\":\""
                                + now.plusSeconds(600) + "\",\"namespace\":\"team-a\",\"purpose\":\"" + run
                                + "-reclaim\"}",
                        Map.of());
        BookingLoad load = new BookingLoad(stack, run);
        ExecutorService pool = BookingLoad.executor(clients);
        Instant loadStart = Instant.now();
        Instant windowStart = loadStart.plusSeconds(8);
        List<Future<?>> running = load.start(pool, clients, perClient, pace(services, kills, perClient), windowStart);
        List<ServiceReplica> victims = List.of();
        List<String> recovery = new ArrayList<>();
        Instant killedAt = loadStart;
        for (int k = 0; k < kills; k++) {
            if (k > 0) {
                recovery.addAll(restart(victims));
            }
            // Mid-load: a client needs at least 12 × 400 ms for its requests (see pace), so some are still to come.
            Thread.sleep(3000);
            victims = victims(services, k);
            killedAt = Instant.now();
            for (ServiceReplica victim : victims) {
                stack.kill(victim);
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
        problems.addAll(survivorsServed(load, victims, killedAt));
        String outcome = load.outcomes().values().stream()
                .collect(Collectors.groupingBy(BookingLoad.Outcome::status, TreeMap::new, Collectors.counting()))
                .toString();
        String which = kills > 1 ? " (the last of " + kills + " kills)" : "";
        ReliabilityReport.add(
                "kill -9",
                "SIGKILL of " + victims + which
                        + " during " + clients * perClient + " booking requests from " + clients
                        + " clients (Idempotency-Key, "
                        + "retried until a final answer, sent to both booking-service replicas in turn)",
                "with the victims still down: no booking lost or duplicated, no overbooking, quota = active bookings, "
                        + "booked units on the surviving gateway, no reclaim twice, HTTP answered by the survivors "
                        + "(bookings, their reads, the resume), the surviving quota-projector leads",
                problems.isEmpty(),
                "answers " + outcome + ", " + load.retries() + " retries; final answers per "
                        + "replica before the kill " + load.answeredBy(loadStart, killedAt) + ", after "
                        + load.answeredBy(killedAt, Instant.now())
                        + (problems.isEmpty() ? "" : "; BROKEN: " + String.join("; ", problems)));
        recovery.addAll(restart(victims));
        List<String> back = new ArrayList<>(invariants.quotaMismatches(Duration.ofSeconds(60)));
        stack.replicas("booking-service").forEach(r -> back.addAll(invariants.unreadable(load, r)));
        List<String> twice = Ledger.doubleReclaims(Ledger.reclaims(stack.probe()));
        if (!twice.isEmpty()) {
            back.add("reclaimed twice without a resume: " + twice);
        }
        ReliabilityReport.add(
                "kill -9",
                "restart of " + victims + " after the load",
                "the restarted replicas rebuild "
                        + "their views: every booking readable and booked units right on every replica; no reclaim twice",
                back.isEmpty(),
                "UP again after " + recovery + (back.isEmpty() ? "" : "; BROKEN: " + String.join("; ", back)));
        problems.addAll(back);
        List<String> left = invariants.cancelRun(run);
        ReliabilityReport.add(
                "kill -9",
                "cancel every booking of " + run + " after the kills",
                "quota drains to the " + "bookings still active",
                left.isEmpty(),
                left.isEmpty() ? "drained" : String.join("; ", left));
        problems.addAll(left);
        String prefix = run + " " + victims + ": ";
        return problems.stream().map(p -> prefix + p).toList();
    }

    /** One replica of each service: the quota-projector that holds the Lease, else replica 1 then 2 in turn. */
    /**
     * The gap between one client's requests. With a second kill the load must still run when it lands: each kill
     * comes 3 s after the previous victims are back, and restarting every service takes about 10 s on this machine
     * (one service about 4 s), so the requests are spread over that time instead of being over before it.
     */
    private static Duration pace(List<String> services, int kills, int perClient) {
        long base = Mode.pick(400, 250);
        if (kills < 2) {
            return Duration.ofMillis(base);
        }
        long restartMillis = services.size() > 1 ? 12_000 : 5_000;
        return Duration.ofMillis(Math.max(base, kills * (3_000 + restartMillis) / perClient));
    }

    private static List<ServiceReplica> victims(List<String> services, int kill) throws InterruptedException {
        List<ServiceReplica> victims = new ArrayList<>();
        for (String service : services) {
            victims.add(
                    service.equals("quota-projector")
                            ? view.awaitQuotaLeader(Duration.ofSeconds(30))
                            : stack.replica(service, kill % ReliabilityStack.REPLICAS + 1));
        }
        return victims;
    }

    private static List<String> restart(List<ServiceReplica> victims) throws Exception {
        long started = System.nanoTime();
        for (ServiceReplica victim : victims) {
            stack.start(victim);
        }
        List<String> recovery = new ArrayList<>();
        for (ServiceReplica victim : victims) {
            stack.awaitHealthy(victim, Duration.ofSeconds(150));
            recovery.add(victim + " " + (System.nanoTime() - started) / 100_000_000 / 10.0 + " s");
        }
        return recovery;
    }

    /** While the victims are down, their services are served by the other replicas. */
    private static List<String> survivorsServed(BookingLoad load, List<ServiceReplica> victims, Instant killedAt)
            throws InterruptedException {
        List<String> problems = new ArrayList<>();
        List<ServiceReplica> bookingSurvivors =
                stack.replicas("booking-service").stream().filter(stack::alive).toList();
        boolean peerKilled = victims.stream().anyMatch(v -> v.spec().name().equals("booking-service"));
        Map<String, Long> after = load.answeredBy(killedAt, Instant.now());
        for (ServiceReplica survivor : bookingSurvivors) {
            if (peerKilled && after.getOrDefault(survivor.name(), 0L) == 0) {
                problems.add(survivor + " answered no booking after the kill of its peer: " + after);
            }
            problems.addAll(invariants.unreadable(load, survivor));
        }
        try {
            ServiceReplica leader = view.awaitQuotaLeader(Duration.ofSeconds(30));
            if (victims.contains(leader)) {
                problems.add("the killed " + leader + " still holds the Lease");
            }
        } catch (IllegalStateException e) {
            problems.add(e.getMessage());
        }
        HttpCalls.Response resume = stack.http()
                .send(
                        "POST",
                        stack.url("idle-reclaimer") + "/api/v1/workloads/team-a/RayCluster/rel-idle/resume",
                        stack.token("team-a"),
                        null,
                        Map.of());
        if (resume.status() != 200) {
            problems.add("resume of the reclaimed rel-idle on a surviving idle-reclaimer answered "
                    + (resume.answered() ? resume.status() + " " + resume.body() : resume.error()));
        }
        return problems;
    }

    /** rel-idle must be reclaimed in the round (else the check proves nothing), and exactly once. */
    private static List<String> reclaimedOnce() throws InterruptedException {
        long deadline =
                System.nanoTime() + Duration.ofSeconds(Mode.pick(60, 90)).toNanos();
        while (true) {
            var steps = Ledger.reclaims(stack.probe());
            List<String> twice = Ledger.doubleReclaims(steps);
            if (!twice.isEmpty()) {
                return List.of("reclaimed twice without a resume in between: " + twice);
            }
            List<ReclaimEvent> relIdle = steps.getOrDefault("team-a/RayCluster/rel-idle", List.of());
            if (!relIdle.isEmpty() && relIdle.getLast() instanceof ReclaimEvent.Reclaimed) {
                return List.of();
            }
            if (System.nanoTime() > deadline) {
                return List.of("team-a/rel-idle (pinned idle) was not reclaimed within the round; steps: "
                        + relIdle.stream()
                                .map(e -> e.getClass().getSimpleName())
                                .toList());
            }
            Thread.sleep(2000);
        }
    }

    private static Map<ServiceReplica, Double> windowSamples() {
        return view.metricByReplica("idle-reclaimer", "gpuaas_reclaim_window_samples_total");
    }

    /** The idle-reclaimer replica that processed the most window samples in between: its death matters most. */
    private static ServiceReplica busiest(Map<ServiceReplica, Double> before, Map<ServiceReplica, Double> after) {
        ServiceReplica busiest = stack.replica("idle-reclaimer", 1);
        double most = -1;
        for (Map.Entry<ServiceReplica, Double> e : after.entrySet()) {
            double processed = e.getValue() - before.getOrDefault(e.getKey(), 0.0);
            if (processed > most) {
                most = processed;
                busiest = e.getKey();
            }
        }
        return busiest;
    }
}
