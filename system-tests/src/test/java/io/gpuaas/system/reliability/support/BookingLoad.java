package io.gpuaas.system.reliability.support;

import io.gpuaas.local.services.ServiceReplica;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * Clients that book as users do while services die: every request carries an {@code Idempotency-Key} (also used as
 * the booking's purpose, so the stored booking can be traced back to it), and a request without a final answer
 * (connection refused or reset, 5xx, 202 still pending) is sent again with the same key and body until it gets one.
 * Attempts go to the booking-service replicas in turn, as through a Service that has not yet noticed a dead pod: an
 * attempt on a killed replica is refused and the next one goes to the other.
 */
public final class BookingLoad {

    /**
     * The final answer to one logical request.
     *
     * @param replica    the booking-service replica that gave it
     * @param answeredAt when it was received
     */
    public record Outcome(
            String key,
            String tenant,
            String pool,
            int status,
            String bookingId,
            int attempts,
            String replica,
            Instant answeredAt) {}

    private static final List<String> POOLS =
            List.of("h200", "h200-mig-1g.18gb", "h200-mig-2g.35gb", "h200-mig-3g.71gb");
    private final ReliabilityStack stack;
    private final String run;
    private final Map<String, Outcome> outcomes = new ConcurrentHashMap<>();
    private final AtomicInteger retries = new AtomicInteger();

    public BookingLoad(ReliabilityStack stack, String run) {
        this.stack = stack;
        this.run = run;
    }

    /** Starts {@code clients} threads sending {@code perClient} requests each, paced by {@code pause}. */
    public List<Future<?>> start(
            ExecutorService pool, int clients, int perClient, Duration pause, Instant windowStart) {
        return java.util.stream.IntStream.range(0, clients)
                .<Future<?>>mapToObj(c -> pool.submit(() -> {
                    Random random = new Random(c * 31L + run.hashCode());
                    for (int i = 0; i < perClient; i++) {
                        String tenant = random.nextBoolean() ? "team-a" : "team-b";
                        String pool1 = POOLS.get(random.nextInt(POOLS.size()));
                        Instant start =
                                windowStart.plusSeconds(random.nextInt(20)).truncatedTo(ChronoUnit.SECONDS);
                        String key = run + "-" + c + "-" + i;
                        String body = "{\"pool\":\"" + pool1 + "\",\"quantity\":" + (1 + random.nextInt(2))
                                + ",\"start\":\"" + start
                                + "\",\"end\":\"" + start.plus(Duration.ofMinutes(10)) + "\",\"namespace\":\"" + tenant
                                + "\",\"purpose\":\"" + key + "\"}";
                        outcomes.put(key, book(key, tenant, pool1, body));
                        sleep(pause);
                    }
                    return null;
                }))
                .toList();
    }

    private Outcome book(String key, String tenant, String pool, String body) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        List<ServiceReplica> replicas = stack.replicas("booking-service");
        for (int attempt = 1; ; attempt++) {
            ServiceReplica replica = replicas.get(Math.floorMod(key.hashCode() + attempt, replicas.size()));
            HttpCalls.Response r = stack.http()
                    .send(
                            "POST",
                            stack.url(replica) + "/api/v1/bookings",
                            stack.token(tenant),
                            body,
                            Map.of("Idempotency-Key", key));
            boolean finalAnswer = r.status() == 201 || (r.status() >= 400 && r.status() < 500 && r.status() != 429);
            if (finalAnswer || System.nanoTime() > deadline) {
                String id =
                        r.status() == 201 ? r.body().replaceAll("(?s).*?\"id\"\\s*:\\s*\"([^\"]+)\".*", "$1") : null;
                return new Outcome(key, tenant, pool, r.status(), id, attempt, replica.name(), Instant.now());
            }
            retries.incrementAndGet();
            sleep(Duration.ofMillis(500));
        }
    }

    public Map<String, Outcome> outcomes() {
        return Map.copyOf(outcomes);
    }

    /** Final answers per booking-service replica received in {@code [from, to)}. */
    public Map<String, Long> answeredBy(Instant from, Instant to) {
        return outcomes.values().stream()
                .filter(o -> !o.answeredAt().isBefore(from) && o.answeredAt().isBefore(to))
                .collect(Collectors.groupingBy(Outcome::replica, TreeMap::new, Collectors.counting()));
    }

    public int retries() {
        return retries.get();
    }

    public String run() {
        return run;
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Used by {@link #start}: keeps the executor's threads few on two cores. */
    public static ExecutorService executor(int clients) {
        return Executors.newFixedThreadPool(clients);
    }
}
