package io.gpuaas.quota.kafka;

import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.Topics;
import io.gpuaas.events.budget.TenantBudget;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.kit.runtime.TopicReplica;
import io.gpuaas.kit.runtime.TopicReplica.StartAt;
import io.gpuaas.quota.k8s.BudgetSource;
import io.gpuaas.quota.model.BorrowPlan;
import java.time.Clock;
import java.time.Duration;
import java.time.YearMonth;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * A replica of the compacted {@code gpuaas.budgets} in memory (the component {@code budget-table}): per tenant and
 * month whether it is over budget. Only the current UTC month and later are kept (1,000 tenants are a few hundred
 * records). Like the bookings, the plan waits until it has caught up with the topic's end as of start: a takeover
 * that had not read the budgets yet would drain every over-budget tenant's borrow-only queue, evicting its work.
 */
public final class BudgetTable implements BudgetSource {

    private final Map<String, TenantBudget> budgets = new ConcurrentHashMap<>();
    private final Runnable onChange;
    private final Clock clock;
    private final TopicReplica replica;

    /** @param onChange called after every applied record (cheap: it only asks for a new plan) */
    public BudgetTable(
            KafkaClients kafka, DeadLetterPublisher deadLetters, Runnable onChange, Clock clock, int startOrder) {
        this.onChange = onChange;
        this.clock = clock;
        this.replica = TopicReplica.builder(
                        "budget-table",
                        () -> kafka.replicaConsumer("quota-projector-budgets"),
                        kafka.settings().topicPrefix(),
                        deadLetters)
                .follow(Topics.BUDGETS, StartAt.BEGINNING, this::apply)
                .backoff(Duration.ofMillis(200), Duration.ofSeconds(5))
                .startOrder(startOrder)
                .build();
    }

    /** The lifecycle component that keeps this table. */
    public TopicReplica replica() {
        return replica;
    }

    /** Whether every budget written before start has been read. */
    public boolean caughtUp() {
        return replica.caughtUp();
    }

    @Override
    public Set<String> overBudget(YearMonth month) {
        String wanted = month.toString();
        return budgets.values().stream()
                .filter(b -> wanted.equals(b.month()) && b.overBudget())
                .map(TenantBudget::tenant)
                .collect(Collectors.toUnmodifiableSet());
    }

    void apply(String key, TenantBudget budget) {
        YearMonth current = BorrowPlan.month(clock.instant());
        if (budget == null || month(budget).map(m -> m.isBefore(current)).orElse(true)) {
            budgets.remove(key);
        } else {
            budgets.put(key, budget);
        }
        onChange.run();
    }

    private static java.util.Optional<YearMonth> month(TenantBudget budget) {
        try {
            return java.util.Optional.of(YearMonth.parse(budget.month()));
        } catch (java.time.format.DateTimeParseException | NullPointerException e) {
            return java.util.Optional.empty();
        }
    }
}
