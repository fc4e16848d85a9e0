package io.gpuaas.system.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.CloudEventHeaders;
import io.gpuaas.events.CloudEvents;
import io.gpuaas.events.Topics;
import io.gpuaas.events.notice.Notice;
import io.gpuaas.events.notice.Notice.ReclaimPending;
import io.gpuaas.local.services.ServiceReplica;
import io.gpuaas.system.reliability.support.KafkaProbe;
import io.gpuaas.system.reliability.support.Mode;
import io.gpuaas.system.reliability.support.ReclaimLoad;
import io.gpuaas.system.reliability.support.ReliabilityReport;
import io.gpuaas.system.reliability.support.ReliabilityStack;
import io.gpuaas.system.reliability.support.ScaleWrites;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * Issue #16: each {@link ReclaimPending} is emitted once across a {@code kill -9} of the service that emits it. Idle
 * Ray clusters and InferenceServices are created 2 s apart on the reliability stack (two idle-reclaimer replicas,
 * 16-second idle window, so each workload's notice falls due 80 % into it, about 13 s after its window opened); as
 * soon as the first notice is on {@code gpuaas.notices}, both idle-reclaimer replicas are killed with {@code -9}, so
 * the others fall due while nothing runs; then both are started again (the notices made after the kill are the
 * restarted replicas'). Read as the SRE user with {@code read_committed}: one notice per (workload, idle window), its
 * {@code ce_id} the notice's, and one reclaim per workload.
 */
class ReclaimPendingKillNineIT {

    private static final Duration STARTUP = Duration.ofSeconds(240);

    @Test
    void shouldWriteEachReclaimPendingOnceAndReclaimEachWorkloadOnceWhenBothReclaimersAreKilledWhileTheyAreDue()
            throws Exception {
        ReliabilityStack stack = ReliabilityStack.shared();
        stack.ensureAllHealthy(Duration.ofSeconds(180));
        String run = "pending-" + System.currentTimeMillis() % 100_000;
        try (ScaleWrites writes = ScaleWrites.watch(stack.kube())) {
            ReclaimLoad load =
                    ReclaimLoad.create(stack.kube(), run, Mode.pick(3, 4), Mode.pick(3, 5), Duration.ofSeconds(2));
            awaitFirstNotice(stack.probe(), load, Duration.ofSeconds(120));
            int beforeKill = notices(stack.probe(), load).size();
            List<ServiceReplica> reclaimers = stack.replicas("idle-reclaimer");
            for (ServiceReplica replica : reclaimers) {
                stack.kill(replica);
            }
            Instant killed = Instant.now();
            Thread.sleep(5_000);
            for (ServiceReplica replica : reclaimers) {
                stack.start(replica);
            }
            for (ServiceReplica replica : reclaimers) {
                stack.awaitHealthy(replica, STARTUP);
            }
            Instant resumed = Instant.now();
            List<ReclaimLoad.Outcome> outcomes = load.awaitReclaimed(stack.probe(), writes, Duration.ofSeconds(180));
            Thread.sleep(5_000); // a duplicate would come with the next commit
            List<ConsumerRecord<byte[], byte[]>> raw = records(stack.probe(), load);
            List<ReclaimPending> pending =
                    raw.stream().map(ReclaimPendingKillNineIT::decode).toList();
            List<String> problems = new ArrayList<>();
            outcomes.forEach(o -> problems.addAll(o.problems()));
            Map<String, Long> perWindow = pending.stream()
                    .collect(Collectors.groupingBy(
                            p -> p.workload().key() + " window " + p.windowId(), Collectors.counting()));
            perWindow.forEach((window, copies) -> {
                if (copies != 1) {
                    problems.add(window + ": " + copies + " ReclaimPending notices");
                }
            });
            // Nothing ran from the kill to the restart: a notice made after the kill is the restarted replicas'.
            long afterKill =
                    pending.stream().filter(p -> p.time().isAfter(killed)).count();
            ReliabilityReport.add(
                    "kill -9",
                    "reclaim notices: " + load.keys().size() + " idle workloads created 2 s apart; SIGKILL of both "
                            + "idle-reclaimer replicas once the first ReclaimPending was written, restarted 5 s later",
                    "one ReclaimPending per (workload, idle window), read_committed; every workload reclaimed "
                            + "exactly once",
                    problems.isEmpty(),
                    pending.size() + " notices for " + perWindow.size() + " windows (" + beforeKill
                            + " before the kill, " + afterKill + " made by the restarted replicas, "
                            + Duration.between(killed, resumed).toSeconds() + " s without a reclaimer); "
                            + ReclaimLoad.summary(outcomes)
                            + (problems.isEmpty() ? "" : "; BROKEN: " + String.join("; ", problems)));
            load.delete();
            assertThat(perWindow.keySet().stream().map(w -> w.substring(0, w.indexOf(" window "))))
                    .as("workloads with a ReclaimPending")
                    .containsExactlyInAnyOrderElementsOf(load.keys());
            assertThat(perWindow)
                    .as("copies of each (workload, window) notice")
                    .allSatisfy(
                            (window, copies) -> assertThat(copies).as(window).isOne());
            assertThat(raw).allSatisfy(r -> assertThat(KafkaProbe.header(r, CloudEvents.ID))
                    .isEqualTo(CloudEventHeaders.idOf(decode(r).noticeId()).toString()));
            assertThat(afterKill).as("notices made by the restarted replicas").isPositive();
            assertThat(problems)
                    .as("reclaims under kill -9 of both reclaimer replicas")
                    .isEmpty();
        }
    }

    private static void awaitFirstNotice(KafkaProbe probe, ReclaimLoad load, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (notices(probe, load).isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no ReclaimPending of the load within " + timeout);
            }
            Thread.sleep(250);
        }
    }

    private static List<ReclaimPending> notices(KafkaProbe probe, ReclaimLoad load) {
        return records(probe, load).stream()
                .map(ReclaimPendingKillNineIT::decode)
                .toList();
    }

    /** The ReclaimPending records of the load's workloads on gpuaas.notices (keyed namespace/kind/name). */
    private static List<ConsumerRecord<byte[], byte[]>> records(KafkaProbe probe, ReclaimLoad load) {
        return probe.readAll(Topics.NOTICES.name(Topics.DEFAULT_PREFIX)).stream()
                .filter(r -> r.key() != null
                        && load.keys().contains(new String(r.key(), java.nio.charset.StandardCharsets.UTF_8)))
                .filter(r -> decodeAny(r) instanceof ReclaimPending)
                .toList();
    }

    private static Notice decodeAny(ConsumerRecord<byte[], byte[]> r) {
        return Topics.NOTICES.valueSerde().deserializer().deserialize(r.topic(), r.headers(), r.value());
    }

    private static ReclaimPending decode(ConsumerRecord<byte[], byte[]> r) {
        return (ReclaimPending) decodeAny(r);
    }
}
