package io.gpuaas.quota;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.kit.k8s.LeaseLeadership;
import io.gpuaas.kit.k8s.LeaseSettings;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.kit.runtime.ComponentHealth;
import io.gpuaas.kit.runtime.LifecycleSettings;
import io.gpuaas.kit.runtime.ServiceComponent;
import io.gpuaas.kit.runtime.ServiceComponents;
import io.gpuaas.kit.runtime.ServiceLifecycle;
import io.gpuaas.kit.runtime.TopicReplica.RecordHandler;
import io.gpuaas.quota.config.MigLayoutSettings;
import io.gpuaas.quota.config.NodeResourceSettings;
import io.gpuaas.quota.config.QuotaSettings;
import io.gpuaas.quota.k8s.ClusterCache;
import io.gpuaas.quota.k8s.NoticeAnnouncer;
import io.gpuaas.quota.k8s.NoticeLoop;
import io.gpuaas.quota.k8s.QuotaLoops;
import io.gpuaas.quota.k8s.WriterGate;
import io.gpuaas.quota.kafka.BookingTable;
import io.gpuaas.quota.kafka.BudgetTable;
import io.gpuaas.quota.metrics.QuotaProjectorMetrics;
import io.gpuaas.quota.mig.MigLayoutApplier;
import io.gpuaas.quota.mig.MigLayoutLoop;
import io.gpuaas.quota.mig.NodeWrites;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The whole projector as service-kit components, started in this order and stopped in reverse:
 * {@code kube-cache} (informers), {@code booking-table} (the bookings replica), {@code budget-table} (the budgets
 * replica: who is over budget), {@code leader-duties},
 * {@code quota-writer} and {@code quota-planner} (the reconcile loops), {@code quota-leadership} (service-kit's
 * {@code LeaseLeadership} with {@code leader-duties} as its duty: campaigns once the cache has synced and the
 * bookings are read; stopping it steps down before the Lease is released), {@code booking-notices} and
 * {@code notice-writer} (booking notices as Events and annotations, {@code k8s.NoticeLoop}). In the service
 * service-kit's {@code ServiceLifecycle} runs {@link #components()}; tests and the benchmark call {@link #start()}.
 */
public final class QuotaProjector implements ServiceComponents, AutoCloseable {

    /** Knobs for code built without the container; production uses {@link #defaults()}. */
    public record Options(Clock clock, UnaryOperator<RecordHandler<Booking>> bookingHandler) {
        public static Options defaults() {
            return new Options(Clock.systemUTC(), UnaryOperator.identity());
        }
    }

    private final ClusterCache cache;
    private final BookingTable bookings;
    private final BudgetTable budgets;
    private final LeaderDuties duties;
    private final QuotaLoops loops;
    private final MigLayoutLoop layouts;
    private final LeaseLeadership leadership;
    private final List<ServiceComponent> components;
    private final ServiceLifecycle lifecycle;

    public QuotaProjector(
            KubernetesClient client,
            KafkaClients kafka,
            QuotaSettings settings,
            LeaseSettings election,
            PoolCatalog catalog,
            PrometheusRegistry registry,
            Clock clock) {
        this(client, kafka, settings, election, catalog, registry, new Options(clock, UnaryOperator.identity()));
    }

    public QuotaProjector(
            KubernetesClient client,
            KafkaClients kafka,
            QuotaSettings settings,
            LeaseSettings election,
            PoolCatalog catalog,
            PrometheusRegistry registry,
            Options options) {
        this(client, kafka, settings, NodeResourceSettings.defaults(), election, catalog, registry, options);
    }

    public QuotaProjector(
            KubernetesClient client,
            KafkaClients kafka,
            QuotaSettings settings,
            NodeResourceSettings nodeResources,
            LeaseSettings election,
            PoolCatalog catalog,
            PrometheusRegistry registry,
            Options options) {
        this(
                client,
                kafka,
                settings,
                nodeResources,
                MigLayoutSettings.defaults(),
                election,
                catalog,
                registry,
                options);
    }

    public QuotaProjector(
            KubernetesClient client,
            KafkaClients kafka,
            QuotaSettings settings,
            NodeResourceSettings nodeResources,
            MigLayoutSettings mig,
            LeaseSettings election,
            PoolCatalog catalog,
            PrometheusRegistry registry,
            Options options) {
        QuotaProjectorMetrics metrics = new QuotaProjectorMetrics(registry);
        DeadLetterPublisher deadLetters = kafka.deadLetterPublisher("quota-projector", registry);
        WriterGate gate = new WriterGate();
        this.cache = new ClusterCache(client, settings.resync(), settings.hardwareProfiles(), registry);
        this.bookings = new BookingTable(
                kafka, deadLetters, this::bookingsChanged, options.clock(), metrics, options.bookingHandler(), 10);
        MigLayoutLoop[] layouts = new MigLayoutLoop[1];
        QuotaLoops[] planning = new QuotaLoops[1];
        this.budgets = new BudgetTable(kafka, deadLetters, () -> planning[0].requestPlan(), options.clock(), 10);
        this.loops = new QuotaLoops(
                client,
                cache,
                bookings,
                budgets,
                catalog,
                settings,
                nodeResources,
                gate,
                options.clock(),
                metrics,
                () -> layouts[0].inForce(),
                30);
        planning[0] = this.loops;
        NoticeLoop notices = new NoticeLoop(
                new NoticeAnnouncer(client, cache, settings.localQueueName(), options.clock()),
                gate,
                kafka,
                deadLetters,
                options.clock(),
                registry,
                notice -> layouts[0].onNotice(notice),
                30);
        this.layouts = new MigLayoutLoop(
                new MigLayoutApplier(
                        new NodeWrites(client, mig.configMapNamespace(), mig.configMapName()),
                        catalog,
                        bookings::bookings,
                        mig,
                        options.clock(),
                        metrics),
                mig,
                gate,
                kafka,
                options.clock(),
                metrics,
                registry,
                notices::caughtUp,
                loops::requestPlan,
                30);
        layouts[0] = this.layouts;
        this.duties = new LeaderDuties(
                cache,
                kafka,
                deadLetters,
                loops,
                () -> {
                    notices.takeover();
                    this.layouts.request();
                },
                gate,
                options.clock(),
                metrics,
                registry,
                20);
        this.leadership = new LeaseLeadership(
                client,
                "quota-leadership",
                election,
                List.of(duties),
                () -> cache.synced() && bookings.caughtUp() && budgets.caughtUp(),
                40);
        cache.addListener(loops::onChange);
        List<ServiceComponent> all =
                new ArrayList<>(List.of(cache, bookings.replica(), budgets.replica(), duties, leadership));
        all.addAll(loops.components());
        all.addAll(notices.components());
        all.add(this.layouts.component());
        this.components = List.copyOf(all);
        this.lifecycle = new ServiceLifecycle(components, new LifecycleSettings(Duration.ofSeconds(10)));
    }

    /** Every component, for service-kit's lifecycle and health. */
    @Override
    public List<ServiceComponent> components() {
        return components;
    }

    /** Starts every component in order (non-blocking); for code that runs without the container. */
    public void start() {
        lifecycle.start();
    }

    /** Whether every component is running and caught up, as readiness says. */
    public boolean ready() {
        return components.stream().map(ServiceComponent::health).allMatch(ComponentHealth::ready);
    }

    public boolean leading() {
        return duties.leading();
    }

    public ClusterCache cache() {
        return cache;
    }

    private void bookingsChanged() {
        loops.requestPlan();
        layouts.request();
    }

    /** Stops every component in reverse order; for code that runs without the container. */
    @Override
    public void close() {
        lifecycle.stop();
    }
}
