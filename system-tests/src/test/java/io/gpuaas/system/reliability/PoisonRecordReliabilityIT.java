package io.gpuaas.system.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.Topics;
import io.gpuaas.local.services.ServiceReplica;
import io.gpuaas.system.reliability.support.HttpCalls;
import io.gpuaas.system.reliability.support.KafkaProbe;
import io.gpuaas.system.reliability.support.ReliabilityReport;
import io.gpuaas.system.reliability.support.ReliabilityStack;
import io.gpuaas.system.reliability.support.SystemView;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Poison records on every topic some service consumes, on every partition, twice with good traffic in between:
 * each must reach {@code gpuaas.dead-letter} once per consuming service with its reason in the {@code gpuaas_dlq_*}
 * headers, and the second round being dead-lettered proves the consumer moved past the good records behind the
 * first. The good traffic must also have its effect: bookings decided, quota written, /metrics updated.
 *
 * <p>The broker enforces ACLs, so poison is written with the credentials of the topic's owner: in production only a
 * principal allowed to write a topic can put a bad record on it (a buggy or version-skewed release of its owner).
 */
class PoisonRecordReliabilityIT {

    /**
     * Input topics and the services consuming each (read from the services' code; see README). Replicas of a
     * service share a dead-letter group: a Streams application's replicas split the partitions, the readers of
     * every partition (booking-service's feed, metrics-gateway's projections) each dead-letter it, so a record may
     * reach the topic once per replica, under the same group.
     */
    static final Map<String, List<String>> CONSUMERS = new LinkedHashMap<>();

    static {
        CONSUMERS.put(Topics.BOOKING_COMMANDS.name(Topics.DEFAULT_PREFIX), List.of("booking-service"));
        // metrics-gateway's ledger feed reads booking-events, kueue-workloads, gpu-samples and reclaim-events beside
        // its projections and dead-letters under its own group.
        CONSUMERS.put(
                Topics.BOOKING_EVENTS.name(Topics.DEFAULT_PREFIX),
                List.of("booking-service", "metrics-gateway-ledger"));
        CONSUMERS.put(
                Topics.BOOKINGS.name(Topics.DEFAULT_PREFIX),
                List.of("booking-service", "quota-projector", "metrics-gateway"));
        CONSUMERS.put(
                Topics.GPU_SAMPLES.name(Topics.DEFAULT_PREFIX),
                List.of("idle-reclaimer", "metrics-gateway", "metrics-gateway-ledger"));
        CONSUMERS.put(Topics.QUOTA_STATE.name(Topics.DEFAULT_PREFIX), List.of("metrics-gateway"));
        CONSUMERS.put(
                Topics.RECLAIM_EVENTS.name(Topics.DEFAULT_PREFIX),
                List.of("metrics-gateway", "metrics-gateway-ledger"));
        // booking-service's lifecycle reads every partition into its global store, on every replica.
        CONSUMERS.put(
                Topics.KUEUE_WORKLOADS.name(Topics.DEFAULT_PREFIX),
                List.of("quota-projector", "booking-service", "metrics-gateway-ledger"));
    }

    private static ReliabilityStack stack;
    private static KafkaProbe kafka;

    @BeforeAll
    static void startStack() throws Exception {
        stack = ReliabilityStack.shared();
        stack.ensureAllHealthy(Duration.ofSeconds(180));
        kafka = stack.probe();
    }

    @Test
    void shouldDeadLetterEveryPoisonRecordAndKeepEveryPartitionMoving() throws Exception {
        List<RecordMetadata> poisons = new ArrayList<>(poisonEveryPartition(1));
        List<String> bookings = bookOnePerPool();
        // The projector reads kueue-workloads when it takes the lead: killing the leader makes the other replica
        // take the Lease over and read the poison (round 1), then the restarted one when the new leader is killed.
        takeOverLease();
        Thread.sleep(3000);
        poisons.addAll(poisonEveryPartition(2));
        ServiceReplica restarting = takeOverLease();

        Map<String, List<String>> missing = awaitDeadLetters(poisons, Duration.ofSeconds(60));
        Map<String, Set<String>> groups = groupsPerTopic();
        for (Map.Entry<String, List<String>> topic : CONSUMERS.entrySet()) {
            List<String> gaps = missing.getOrDefault(topic.getKey(), List.of());
            ReliabilityReport.add(
                    "poison records",
                    "2 rounds of poison (garbage bytes without headers, unknown ce_type, the "
                            + "topic's own ce_type with a mistyped or empty body) on each of the "
                            + kafka.partitions(topic.getKey()) + " partitions of "
                            + topic.getKey(),
                    "dead-lettered with gpuaas_dlq_reason by each of " + topic.getValue()
                            + "; round 2 reached (partition kept moving)",
                    gaps.isEmpty(),
                    "dead-lettered by " + groups.getOrDefault(topic.getKey(), Set.of())
                            + (gaps.isEmpty()
                                    ? ""
                                    : "; missing " + gaps.size() + ": "
                                            + String.join(", ", gaps.subList(0, Math.min(4, gaps.size())))));
        }
        String effects = goodTrafficEffects(bookings);
        ReliabilityReport.add(
                "poison records",
                "good traffic behind the poison: one booking per pool (booking-commands, "
                        + "booking-events, bookings), its quota and queue state (quota-state), GPU samples",
                "booked (201), visible, " + "ClusterQueue quota and /metrics updated",
                effects.isEmpty(),
                effects.isEmpty() ? "all seen" : effects);
        stack.awaitHealthy(restarting, Duration.ofSeconds(120));
        assertThat(stack.unhealthy())
                .as("replicas not healthy after the poison")
                .isEmpty();
        assertThat(effects)
                .as("good records behind poison records without effect")
                .isEmpty();
        assertThat(missing)
                .as("poison records not dead-lettered by every consumer, per topic (partition@offset/round)")
                .isEmpty();
    }

    /**
     * Kills the quota-projector replica holding the Lease, waits for the other to lead (it reads kueue-workloads as it
     * takes over) and starts the killed one again, without waiting for it: answers the replica still starting.
     */
    private static ServiceReplica takeOverLease() throws Exception {
        SystemView view = new SystemView(stack);
        ServiceReplica leader = view.awaitQuotaLeader(Duration.ofSeconds(150));
        stack.kill(leader);
        // The other replica may itself still be starting (killed and restarted by the takeover before).
        view.awaitQuotaLeader(Duration.ofSeconds(150));
        stack.start(leader);
        return leader;
    }

    /** One poison per partition of every input topic; the kind rotates with the partition. */
    private List<RecordMetadata> poisonEveryPartition(int round) throws Exception {
        List<RecordMetadata> sent = new ArrayList<>();
        for (String topic : CONSUMERS.keySet()) {
            for (int p = 0; p < kafka.partitions(topic); p++) {
                Map<String, String> headers = new HashMap<>();
                byte[] value =
                        switch (p % 4) {
                            case 0 -> new byte[] {0, (byte) 0xff, 'p', 'o', 'i', 's', 'o', 'n'};
                            case 1 -> {
                                headers.putAll(Map.of(
                                        "ce_specversion",
                                        "1.0",
                                        "ce_id",
                                        "poison-" + round + "-" + p,
                                        "ce_source",
                                        "/reliability",
                                        "ce_type",
                                        "io.gpuaas.no.such.type.v1",
                                        "content-type",
                                        "application/json"));
                                yield "{}".getBytes(StandardCharsets.UTF_8);
                            }
                            case 2 -> {
                                headers.putAll(cloudEvent(topic, round, p));
                                yield "{\"id\":\"poison\",\"quantity\":\"many\",\"start\":17}"
                                        .getBytes(StandardCharsets.UTF_8);
                            }
                            default -> {
                                headers.putAll(cloudEvent(topic, round, p));
                                yield new byte[0];
                            }
                        };
                sent.add(kafka.sendAsOwner(topic, p, "poison-" + round + "-" + p, value, headers));
            }
        }
        return sent;
    }

    /** Binary-mode CloudEvents headers with the topic's own ce_type, so the body decoder is what must fail. */
    private static Map<String, String> cloudEvent(String topic, int round, int partition) {
        String type = TYPES.get(topic.substring(Topics.DEFAULT_PREFIX.length()));
        return Map.of(
                "ce_specversion",
                "1.0",
                "ce_id",
                "poison-" + round + "-" + partition,
                "ce_source",
                "/reliability",
                "ce_type",
                type,
                "content-type",
                "application/json");
    }

    private static final Map<String, String> TYPES = Map.of(
            "booking-commands",
            "io.gpuaas.booking.command.create.v1",
            "booking-events",
            "io.gpuaas.booking.confirmed.v1",
            "bookings",
            "io.gpuaas.booking.state.v1",
            "kueue-workloads",
            "io.gpuaas.kueue.workload.observed.v1",
            "gpu-samples",
            "io.gpuaas.gpu.scrape.v1",
            "quota-state",
            "io.gpuaas.quota.queue-state.v1",
            "reclaim-events",
            "io.gpuaas.reclaim.reclaimed.v1");

    private static List<String> bookOnePerPool() {
        Instant start = Instant.now().plusSeconds(4).truncatedTo(ChronoUnit.SECONDS);
        List<String> ids = new ArrayList<>();
        for (String pool : List.of("h200", "h200-mig-1g.18gb", "h200-mig-2g.35gb", "h200-mig-3g.71gb")) {
            String body = "{\"pool\":\"" + pool + "\",\"quantity\":1,\"start\":\"" + start + "\",\"end\":\""
                    + start.plusSeconds(240) + "\",\"namespace\":\"team-b\",\"purpose\":\"after-poison\"}";
            HttpCalls.Response r = stack.http()
                    .send(
                            "POST",
                            stack.url("booking-service") + "/api/v1/bookings",
                            stack.token("team-b"),
                            body,
                            Map.of());
            assertThat(r.status())
                    .as("booking %s behind the poison: %s", pool, r.body())
                    .isEqualTo(201);
            ids.add(r.body().replaceAll("(?s).*\"id\"\\s*:\\s*\"([^\"]+)\".*", "$1"));
        }
        return ids;
    }

    /** What the good traffic behind the poison should have changed; empty when all of it did. */
    private static String goodTrafficEffects(List<String> bookings) throws InterruptedException {
        SystemView view = new SystemView(stack);
        List<String> problems = new ArrayList<>();
        for (String id : bookings) {
            HttpCalls.Response r =
                    stack.http().get(stack.url("booking-service") + "/api/v1/bookings/" + id, stack.token("team-b"));
            if (r.status() != 200) {
                problems.add("GET booking " + id + " → " + r.status());
            }
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        Map<String, Long> quota = Map.of();
        List<String> gateways = List.of();
        while (System.nanoTime() < deadline) {
            quota = view.tenantQuota("team-b");
            gateways = gatewayEffects(view);
            if (quota.size() >= 4 && gateways.isEmpty()) {
                break;
            }
            Thread.sleep(1000);
        }
        if (quota.size() < 4) {
            problems.add("ClusterQueue gpuaas-team-b quota " + quota + ", expected 4 flavors");
        }
        problems.addAll(gateways);
        double samples = view.metric("idle-reclaimer", "gpuaas_reclaim_samples_total");
        Thread.sleep(5000);
        if (view.metric("idle-reclaimer", "gpuaas_reclaim_samples_total") <= samples) {
            problems.add("idle-reclaimer gpuaas_reclaim_samples_total stopped at " + samples);
        }
        for (String id : bookings) {
            stack.http()
                    .send(
                            "DELETE",
                            stack.url("booking-service") + "/api/v1/bookings/" + id,
                            stack.token("team-b"),
                            null,
                            Map.of());
        }
        return String.join("; ", problems);
    }

    /** Each metrics-gateway replica builds every projection: each must show team-b's bookings and queue. */
    private static List<String> gatewayEffects(SystemView view) {
        List<String> problems = new ArrayList<>();
        for (ServiceReplica gateway : stack.replicas("metrics-gateway")) {
            double booked = view.metric(gateway, "gpuaas_tenant_booked_units", "tenant=\"team-b\"");
            if (booked < 4) {
                problems.add(gateway + " gpuaas_tenant_booked_units{tenant=team-b} = " + booked + ", expected ≥ 4");
            }
            if (view.metrics(gateway).lines().noneMatch(l -> l.startsWith("gpuaas_") && l.contains("gpuaas-team-b"))) {
                problems.add(gateway + " shows no queue series for gpuaas-team-b (quota-state not consumed)");
            }
        }
        return problems;
    }

    /** For each topic, the poison records (partition@offset/round) some consumer has not dead-lettered yet. */
    private static Map<String, List<String>> awaitDeadLetters(List<RecordMetadata> poisons, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Map<String, Set<String>> seen = new HashMap<>();
            for (ConsumerRecord<byte[], byte[]> r : kafka.readAll(Topics.DEAD_LETTER.name(Topics.DEFAULT_PREFIX))) {
                String reason = KafkaProbe.header(r, DeadLetterPublisher.REASON);
                if (reason == null || reason.isBlank()) {
                    continue;
                }
                seen.computeIfAbsent(
                                KafkaProbe.header(r, DeadLetterPublisher.TOPIC) + "/"
                                        + KafkaProbe.header(r, DeadLetterPublisher.PARTITION) + "/"
                                        + KafkaProbe.header(r, DeadLetterPublisher.OFFSET),
                                k -> new TreeSet<>())
                        .add(String.valueOf(KafkaProbe.header(r, DeadLetterPublisher.GROUP)));
            }
            Map<String, List<String>> missing = new LinkedHashMap<>();
            for (int i = 0; i < poisons.size(); i++) {
                RecordMetadata m = poisons.get(i);
                int expected = CONSUMERS.get(m.topic()).size();
                Set<String> by = seen.getOrDefault(m.topic() + "/" + m.partition() + "/" + m.offset(), Set.of());
                if (by.size() < expected) {
                    missing.computeIfAbsent(m.topic(), k -> new ArrayList<>())
                            .add(m.partition() + "@" + m.offset() + "/round" + (i < poisons.size() / 2 ? 1 : 2) + " by "
                                    + by);
                }
            }
            if (missing.isEmpty() || System.nanoTime() > deadline) {
                return missing;
            }
            Thread.sleep(2000);
        }
    }

    private static Map<String, Set<String>> groupsPerTopic() {
        Map<String, Set<String>> out = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : kafka.readAll(Topics.DEAD_LETTER.name(Topics.DEFAULT_PREFIX))) {
            out.computeIfAbsent(KafkaProbe.header(r, DeadLetterPublisher.TOPIC), k -> new TreeSet<>())
                    .add(KafkaProbe.header(r, DeadLetterPublisher.GROUP) + " ("
                            + KafkaProbe.header(r, DeadLetterPublisher.REASON) + ")");
        }
        return out;
    }
}
