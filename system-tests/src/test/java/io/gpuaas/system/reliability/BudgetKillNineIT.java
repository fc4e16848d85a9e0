package io.gpuaas.system.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.Json;
import io.gpuaas.events.Topics;
import io.gpuaas.events.budget.TenantBudget;
import io.gpuaas.events.notice.Notice;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.system.reliability.support.BookingServiceJvms;
import io.gpuaas.system.reliability.support.HttpCalls;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 30: the budget notices at 50, 80 and 100 % are each on {@code gpuaas.notices} once across {@code kill -9}.
 * One booking-service JVM; an admin sets team-a a budget of 20 GPU-hours for next month; team-a books one GPU-hour at
 * a time. Right after the bookings that cross 50 %, 80 % and 100 % are answered (201), the JVM is killed: the budget
 * stage is then reading that booking's outcome back and deciding the notice, and the restarted JVM decides it again
 * from its restored ledger. Afterwards the notices (read as the SRE user, read_committed) hold each threshold once,
 * and no more than 20 GPU-hours were confirmed.
 */
@ExtendWith(KafkaBrokerExtension.class)
class BudgetKillNineIT {

    private static final String POOL = "h200";
    private static final Duration STARTUP = Duration.ofSeconds(240);
    private static final int LIMIT = 20;

    @Test
    void shouldTellEachBudgetThresholdOnceAcrossKillNine(KafkaBroker broker) throws Exception {
        PoolCatalog pools = new PoolCatalog(List.of(new Pool(POOL, "h200", "nvidia.com/gpu", 8, "NVIDIA H200", null)));
        Map<String, String> settings = Map.of(
                "gpuaas.booking.http.requests-per-second", "1000",
                "gpuaas.booking.http.burst", "1000",
                "gpuaas.booking.decision-timeout", "PT30S");
        YearMonth month = YearMonth.now(ZoneOffset.UTC).plusMonths(1);
        Instant day = LocalDate.of(month.getYear(), month.getMonth(), 3)
                .atStartOfDay()
                .toInstant(ZoneOffset.UTC);
        try (BookingServiceJvms jvms = BookingServiceJvms.prepare(
                broker,
                broker.uniquePrefix(),
                Path.of("target/budget-kill-nine").toAbsolutePath(),
                pools,
                settings)) {
            jvms.start(1);
            jvms.awaitHealthy(1, STARTUP);
            HttpCalls.Response set = jvms.http()
                    .send(
                            "PUT",
                            jvms.url(1) + "/api/v1/budgets/team-a/" + month,
                            jvms.adminToken(),
                            "{\"unit\": \"GPU_HOURS\", \"limit\": " + LIMIT + "}",
                            Map.of());
            assertThat(set.status()).as(set.body()).isEqualTo(202);
            awaitBudget(jvms, month);

            List<Integer> statuses = new ArrayList<>();
            for (int i = 0; i < LIMIT + 3; i++) {
                Instant start = day.plus(Duration.ofHours(i));
                String body = "{\"pool\":\"" + POOL + "\",\"quantity\":1,\"namespace\":\"team-a\",\"start\":\"" + start
                        + "\",\"end\":\"" + start.plus(Duration.ofHours(1)) + "\"}";
                HttpCalls.Response answer = jvms.http()
                        .send(
                                "POST",
                                jvms.url(1) + "/api/v1/bookings",
                                jvms.token("team-a", List.of("team-a")),
                                body,
                                Map.of());
                statuses.add(answer.status());
                int booked = i + 1;
                if (booked == LIMIT / 2 || booked == LIMIT * 8 / 10 || booked == LIMIT) {
                    jvms.kill(1);
                    jvms.start(1);
                    jvms.awaitHealthy(1, STARTUP);
                }
            }

            assertThat(statuses.subList(0, LIMIT)).as("within the budget").containsOnly(201);
            assertThat(statuses.subList(LIMIT, LIMIT + 3)).as("over the budget").containsOnly(409);
            List<Notice.BudgetThresholdReached> told = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (System.nanoTime() < deadline) {
                told = thresholds(jvms, month);
                if (told.size() >= 3) {
                    break;
                }
                Thread.sleep(500);
            }
            System.out.printf("budget-kill-nine: answers %s, notices %s%n", statuses, told);
            assertThat(told).extracting(Notice.BudgetThresholdReached::percent).containsExactlyInAnyOrder(50, 80, 100);
            List<TenantBudget> states = jvms.probe().readAll(jvms.topic("budgets")).stream()
                    .map(r -> Topics.BUDGETS.valueSerde().deserializer().deserialize(r.topic(), r.headers(), r.value()))
                    .toList();
            assertThat(states).allSatisfy(s -> assertThat(s.booked()).isLessThanOrEqualTo(s.limit()));
            assertThat(states).last().satisfies(s -> assertThat(s.booked()).isEqualByComparingTo("20"));
        }
    }

    private static List<Notice.BudgetThresholdReached> thresholds(BookingServiceJvms jvms, YearMonth month) {
        return jvms.probe().readAll(jvms.topic("notices")).stream()
                .map(r -> Topics.NOTICES.valueSerde().deserializer().deserialize(r.topic(), r.headers(), r.value()))
                .filter(Notice.BudgetThresholdReached.class::isInstance)
                .map(Notice.BudgetThresholdReached.class::cast)
                .filter(n -> n.tenant().equals("team-a") && n.month().equals(month.toString()))
                .toList();
    }

    private static void awaitBudget(BookingServiceJvms jvms, YearMonth month) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            HttpCalls.Response read = jvms.http()
                    .get(jvms.url(1) + "/api/v1/budgets/team-a/" + month, jvms.token("team-a", List.of("team-a")));
            if (read.status() == 200) {
                assertThat(Json.mapper().readTree(read.body()).get("limit").intValue())
                        .isEqualTo(LIMIT);
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("budget not readable: " + read.status() + " " + read.body());
            }
            Thread.sleep(250);
        }
    }
}
