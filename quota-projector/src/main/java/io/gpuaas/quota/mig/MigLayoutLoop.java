package io.gpuaas.quota.mig;

import io.gpuaas.events.Topics;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.notice.Notice;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.kit.runtime.ReconcileLoop;
import io.gpuaas.kit.runtime.ReconcileLoop.Outcome;
import io.gpuaas.kit.runtime.ServiceComponent;
import io.gpuaas.quota.config.MigLayoutSettings;
import io.gpuaas.quota.k8s.WriterGate;
import io.gpuaas.quota.metrics.QuotaProjectorMetrics;
import io.gpuaas.quota.model.FlavorResource;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Flexible pools' layouts as a service-kit reconcile loop ({@code mig-layouts}) with one key, run by the Lease holder
 * only (the {@link WriterGate}, as for quota): each pass is {@link MigLayoutApplier#apply()}; it runs again after
 * {@code gpuaas.quota.mig.poll} (there is no node informer: a flexible pool has few nodes, and the state labels the MIG
 * manager writes are read where they are needed), and when bookings change. The layouts in force it measured go to
 * the quota planner, which plans again when they changed. A booking whose layout has failed, or is still pending or
 * blocked within {@code notice-margin} of its start, gets one {@link Notice.MigLayoutNotReady} on
 * {@code gpuaas.notices} per booking and window: the notices already on the topic (read by the
 * {@code booking-notices} replica) are remembered, and none is sent before that replica has caught up.
 */
public final class MigLayoutLoop {

    static final String KEY = "layouts";
    private static final Logger LOG = LoggerFactory.getLogger(MigLayoutLoop.class);

    private final MigLayoutApplier applier;
    private final MigLayoutSettings settings;
    private final WriterGate gate;
    private final Clock clock;
    private final QuotaProjectorMetrics metrics;
    private final BooleanSupplier noticesRead;
    private final Runnable inForceChanged;
    private final KafkaClients kafka;
    private final Set<String> announced = ConcurrentHashMap.newKeySet();
    private final ReconcileLoop<String> loop;
    private volatile Map<FlavorResource, Long> inForce = Map.of();

    public MigLayoutLoop(
            MigLayoutApplier applier,
            MigLayoutSettings settings,
            WriterGate gate,
            KafkaClients kafka,
            Clock clock,
            QuotaProjectorMetrics metrics,
            PrometheusRegistry registry,
            BooleanSupplier noticesRead,
            Runnable inForceChanged,
            int startOrder) {
        this.applier = applier;
        this.settings = settings;
        this.gate = gate;
        this.kafka = kafka;
        this.clock = clock;
        this.metrics = metrics;
        this.noticesRead = noticesRead;
        this.inForceChanged = inForceChanged;
        this.loop = ReconcileLoop.<String>builder(
                        "mig-layouts", key -> gate.ifOpen(this::pass).orElse(Outcome.done()))
                .resync(settings.poll(), () -> applier.anyFlexible() && gate.isOpen() ? List.of(KEY) : List.of())
                .metrics(registry)
                .startOrder(startOrder)
                .build();
    }

    public ServiceComponent component() {
        return loop;
    }

    /** Bookings changed, or a term began: look again. */
    public void request() {
        if (applier.anyFlexible()) {
            loop.enqueue(KEY);
        }
    }

    /** The units per flexible flavor and resource the nodes offer (empty before the first pass). */
    public Map<FlavorResource, Long> inForce() {
        return inForce;
    }

    /** A notice read from {@code gpuaas.notices}: ours are not sent again. */
    public void onNotice(Notice notice) {
        if (notice instanceof Notice.MigLayoutNotReady mine) {
            announced.add(mine.noticeId());
        }
    }

    private Outcome pass() throws Exception {
        MigLayoutApplier.Pass pass = applier.apply();
        if (!pass.inForce().equals(inForce)) {
            inForce = Map.copyOf(pass.inForce());
            inForceChanged.run();
        }
        announce(pass.notReady());
        return Outcome.requeueAfter(settings.poll());
    }

    private void announce(List<MigLayoutApplier.NotReady> notReady) throws Exception {
        if (!noticesRead.getAsBoolean()) {
            return; // the next pass: sending before the topic is read could repeat a notice
        }
        Instant now = clock.instant();
        Map<String, MigLayoutApplier.NotReady> first = new LinkedHashMap<>();
        for (MigLayoutApplier.NotReady n : notReady) {
            boolean due = "failed".equals(n.state())
                    || !now.isBefore(n.booking().start().minus(settings.noticeMargin()));
            if (due) {
                first.merge(
                        n.booking().id(),
                        n,
                        (a, b) -> "failed".equals(b.state()) && !"failed".equals(a.state()) ? b : a);
            }
        }
        for (MigLayoutApplier.NotReady n : first.values()) {
            Booking b = n.booking();
            String id = Notice.migLayoutNotReadyId(b.id(), b.start());
            if (announced.contains(id)) {
                continue;
            }
            Notice notice = new Notice.MigLayoutNotReady(
                    id, b.id(), b.tenant(), b.namespace(), b.pool(), n.node(), n.state(), n.reason(), b.start(), now);
            // Asked for at the first notice only: a replica that never sends one never connects a producer.
            kafka.producer("quota-projector-notices", Topics.NOTICES)
                    .send(new ProducerRecord<>(kafka.topic(Topics.NOTICES), b.id(), notice))
                    .get(10, TimeUnit.SECONDS);
            announced.add(id);
            metrics.layoutNotice(n.state());
            LOG.warn("booking {}: MIG layout on {} not ready ({}): {}", b.id(), n.node(), n.state(), n.reason());
        }
    }
}
