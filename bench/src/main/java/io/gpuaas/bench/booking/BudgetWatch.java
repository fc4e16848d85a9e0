package io.gpuaas.bench.booking;

import io.gpuaas.events.Topics;
import io.gpuaas.events.budget.TenantBudget;
import io.gpuaas.events.notice.Notice;
import io.gpuaas.testing.kafka.KafkaBroker;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * What the budget stage wrote, read back from the start as an SRE's consumer would (read_committed, the broker's super
 * user): the latest {@link TenantBudget} per tenant and month on {@code gpuaas.budgets}, and every
 * {@link Notice.BudgetThresholdReached} on {@code gpuaas.notices}.
 */
final class BudgetWatch implements AutoCloseable {

    private final Map<String, TenantBudget> months = new ConcurrentHashMap<>();
    private final List<Notice.BudgetThresholdReached> notices = new CopyOnWriteArrayList<>();
    private final AtomicBoolean reading = new AtomicBoolean(true);
    private final Thread reader;

    BudgetWatch(KafkaBroker broker, String prefix) {
        Map<String, Object> config = new HashMap<>(broker.clientProperties());
        config.put("isolation.level", "read_committed");
        config.put("fetch.max.wait.ms", 20);
        KafkaConsumer<String, byte[]> consumer =
                new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer());
        String budgets = Topics.BUDGETS.name(prefix);
        String noticeTopic = Topics.NOTICES.name(prefix);
        List<TopicPartition> partitions = new ArrayList<>();
        for (String topic : List.of(budgets, noticeTopic)) {
            consumer.partitionsFor(topic).forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        var budgetReader = Topics.BUDGETS.valueSerde().deserializer();
        var noticeReader = Topics.NOTICES.valueSerde().deserializer();
        this.reader = new Thread(
                () -> {
                    try (consumer) {
                        while (reading.get()) {
                            for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(50))) {
                                if (r.topic().equals(budgets)) {
                                    TenantBudget b = budgetReader.deserialize(r.topic(), r.headers(), r.value());
                                    months.put(r.key(), b);
                                } else if (noticeReader.deserialize(r.topic(), r.headers(), r.value())
                                        instanceof Notice.BudgetThresholdReached n) {
                                    notices.add(n);
                                }
                            }
                        }
                    }
                },
                "budget-watch");
        reader.start();
    }

    /** The latest state of each tenant's month ({@code tenant/yyyy-MM}). */
    Map<String, TenantBudget> months() {
        return Map.copyOf(months);
    }

    /** Every threshold notice read, in the order read (a copy sent twice would be here twice). */
    List<Notice.BudgetThresholdReached> notices() {
        return List.copyOf(notices);
    }

    /**
     * Waits (at most {@code timeout}) until {@code done} holds for the months read so far.
     *
     * @return whether it did
     */
    boolean await(Predicate<Map<String, TenantBudget>> done, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.test(months())) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(50);
        }
        return true;
    }

    /** Whether every month in {@code limits} has that limit and nothing held (every request answered and counted). */
    static boolean settled(Map<String, TenantBudget> read, Map<String, BigDecimal> limits) {
        return limits.entrySet().stream().allMatch(e -> {
            TenantBudget b = read.get(e.getKey());
            return b != null
                    && b.limit().compareTo(e.getValue()) == 0
                    && b.held().signum() == 0;
        });
    }

    @Override
    public void close() throws InterruptedException {
        reading.set(false);
        reader.join();
    }
}
