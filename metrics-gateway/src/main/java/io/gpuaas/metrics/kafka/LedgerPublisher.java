package io.gpuaas.metrics.kafka;

import io.gpuaas.events.usage.UsageDaily;
import io.gpuaas.events.usage.UsageLedgerEvent;
import io.gpuaas.kit.k8s.LeaderDuty;
import io.gpuaas.kit.runtime.ComponentHealth;
import io.gpuaas.kit.runtime.ComponentHealth.State;
import io.gpuaas.kit.runtime.ServiceComponent;
import io.gpuaas.metrics.StartOrder;
import io.gpuaas.metrics.ledger.Ledger;
import io.gpuaas.metrics.ledger.LedgerInputs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Component {@code usage-ledger}: publishes the ledger's daily records on the compacted {@code gpuaas.usage-ledger},
 * keyed {@code <tenant>/<yyyy-mm-dd>}, at most once per {@code interval}, and only the days whose figures changed
 * since this replica last published them. A {@link LeaderDuty}: only the Lease holder publishes; a new leader
 * publishes every day once (it does not know what the previous one sent; the compacted topic keeps the last), and
 * nothing while the ledger feed is behind, so a rebuilding replica never publishes half-folded days.
 */
public final class LedgerPublisher implements ServiceComponent, LeaderDuty, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LedgerPublisher.class);

    private final LedgerInputs ledger;
    private final Producer<String, UsageLedgerEvent> producer;
    private final String topic;
    private final Duration interval;
    private final BooleanSupplier caughtUp;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("usage-ledger").daemon().factory());
    /** Key to the pools' figures last sent under it. */
    private final Map<String, Map<String, UsageDaily.Figures>> published = new HashMap<>();

    private ScheduledFuture<?> schedule;
    private volatile State state = State.STARTING;

    public LedgerPublisher(
            LedgerInputs ledger,
            Producer<String, UsageLedgerEvent> producer,
            String topic,
            Duration interval,
            BooleanSupplier caughtUp) {
        this.ledger = ledger;
        this.producer = producer;
        this.topic = topic;
        this.interval = interval;
        this.caughtUp = caughtUp;
    }

    @Override
    public String name() {
        return "usage-ledger";
    }

    @Override
    public int startOrder() {
        return StartOrder.ROLLUPS;
    }

    @Override
    public synchronized ComponentHealth health() {
        String detail = schedule != null
                ? "changed days every " + interval + " to " + topic
                : "standing by: another replica publishes to " + topic;
        return new ComponentHealth(state, true, detail, 0);
    }

    @Override
    public synchronized void start() {
        if (state == State.STARTING) {
            state = State.RUNNING;
        }
    }

    @Override
    public synchronized void lead() {
        if (state == State.STOPPED || schedule != null) {
            return;
        }
        published.clear();
        schedule = timer.scheduleWithFixedDelay(this::publishSafely, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void stepDown() {
        ScheduledFuture<?> current;
        synchronized (this) {
            current = schedule;
            schedule = null;
        }
        if (current != null) {
            current.cancel(false);
            producer.flush();
        }
    }

    @Override
    public void stop(Duration grace) {
        synchronized (this) {
            if (state == State.STOPPED) {
                return;
            }
            state = State.STOPPED;
        }
        stepDown();
        timer.shutdownNow();
        producer.close(grace);
    }

    private void publishSafely() {
        try {
            if (caughtUp.getAsBoolean()) {
                publishChanged();
            }
        } catch (RuntimeException e) {
            LOG.warn("usage ledger not published: {}", e.toString());
        }
    }

    /** Sends the daily records whose figures differ from what this replica last sent; returns them. */
    public synchronized List<UsageDaily> publishChanged() {
        Ledger current = ledger.ledger();
        List<UsageDaily> days = current.daily();
        List<UsageDaily> changed = new ArrayList<>(days.stream()
                .filter(d -> !d.pools().equals(published.get(key(d))))
                .toList());
        // A day that lost all its figures (a booking cancelled before its start) is published as zero, so the
        // compacted topic does not keep the old figures.
        Set<String> present = days.stream().map(LedgerPublisher::key).collect(Collectors.toSet());
        published.entrySet().stream()
                .filter(e -> !present.contains(e.getKey()) && !e.getValue().isEmpty())
                .map(Map.Entry::getKey)
                .sorted()
                .forEach(k -> {
                    int cut = k.lastIndexOf('/');
                    changed.add(new UsageDaily(
                            k.substring(0, cut),
                            k.substring(cut + 1),
                            Map.of(),
                            UsageDaily.Figures.ZERO,
                            current.version(),
                            current.asOf()));
                });
        for (UsageDaily day : changed) {
            producer.send(new ProducerRecord<>(topic, key(day), day), (metadata, error) -> {
                if (error != null) {
                    LOG.warn("usage ledger {} not published: {}", key(day), error.toString());
                    forget(key(day));
                }
            });
            published.put(key(day), day.pools());
        }
        return changed;
    }

    private synchronized void forget(String key) {
        published.remove(key);
    }

    private static String key(UsageDaily day) {
        return UsageDaily.key(day.tenant(), day.day());
    }

    @Override
    public void close() {
        stop(Duration.ofSeconds(10));
    }
}
