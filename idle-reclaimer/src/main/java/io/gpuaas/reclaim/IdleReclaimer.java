package io.gpuaas.reclaim;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.events.KafkaAccess;
import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.kit.runtime.ServiceComponent;
import io.gpuaas.kit.runtime.ServiceComponents;
import io.gpuaas.kit.runtime.StreamsApplication;
import io.gpuaas.reclaim.announce.AnnouncerLoop;
import io.gpuaas.reclaim.apply.IntentApplier;
import io.gpuaas.reclaim.apply.ScaleAction;
import io.gpuaas.reclaim.config.ApplierSettings;
import io.gpuaas.reclaim.config.IdlePolicySettings;
import io.gpuaas.reclaim.config.KeepSettings;
import io.gpuaas.reclaim.config.ReclaimerSettings;
import io.gpuaas.reclaim.k8s.PodOwnerIndex;
import io.gpuaas.reclaim.k8s.ReclaimAnnouncer;
import io.gpuaas.reclaim.k8s.ResumeRequests;
import io.gpuaas.reclaim.k8s.ResumeService;
import io.gpuaas.reclaim.k8s.WorkerScaler;
import io.gpuaas.reclaim.k8s.WorkloadDirectory;
import io.gpuaas.reclaim.metrics.ReclaimerMetrics;
import io.gpuaas.reclaim.model.PolicyResolver;
import io.gpuaas.reclaim.stream.ReclaimDecider;
import io.gpuaas.reclaim.stream.ReclaimPipeline;
import io.gpuaas.reclaim.stream.ReclaimTopology;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The whole reclaimer, built in one place and read top to bottom: the informer caches that say who owns a GPU and
 * under which policy, the exactly-once stream that turns samples into decisions, and the loops that carry them out
 * (the intent applier), show them ahead (the announcer) and undo them (resumes). Service-kit's
 * {@code ServiceLifecycle} runs {@link #components()} by start order and stops them in reverse; the HTTP edge reads
 * {@link #resumes()}. Nothing here is a bean but this: {@link IdleReclaimerService} builds it from configuration.
 *
 * <p>Start order: the caches and the loops fed by them or by topics ({@link #CACHES}), then the stream
 * ({@link #STREAM}), then the applier ({@link IntentApplier#START_ORDER}): on shutdown the applier stops reading
 * intents and commits what it applied, then the stream commits its last transaction and closes, and the caches go
 * last.
 */
public final class IdleReclaimer implements ServiceComponents {

    /** Informer caches, resume requests and the announcer: no order among them. */
    public static final int CACHES = 0;
    /** The stream: after the caches it reads, before the applier of its intents. */
    public static final int STREAM = 10;

    private static final Logger LOG = LoggerFactory.getLogger(IdleReclaimer.class);

    /** Every setting the reclaimer reads, one record per concern. */
    public record Settings(
            ReclaimerSettings reclaimer, ApplierSettings applier, IdlePolicySettings policy, KeepSettings keep) {

        /** Settings with the keep bounds' defaults. */
        public Settings(ReclaimerSettings reclaimer, ApplierSettings applier, IdlePolicySettings policy) {
            this(reclaimer, applier, policy, KeepSettings.defaults());
        }
    }

    /**
     * Knobs production leaves at {@link #defaults()}.
     *
     * @param scaleAction wraps the applier's write side (the fault IT's seam: an applier that throws)
     */
    public record Options(UnaryOperator<ScaleAction> scaleAction) {
        public static Options defaults() {
            return new Options(UnaryOperator.identity());
        }
    }

    private final ResumeService resumes;
    private final List<ServiceComponent> components;

    /**
     * @param events publishes an event of a step taken outside the stream (a resume) and returns once it is durable
     */
    public IdleReclaimer(
            Settings settings,
            KubernetesClient client,
            KafkaClients kafka,
            Consumer<ReclaimEvent> events,
            PrometheusRegistry registry,
            Options options) {
        ReclaimerSettings reclaimer = settings.reclaimer();
        Clock clock = Clock.systemUTC();
        ReclaimerMetrics metrics = new ReclaimerMetrics(registry);
        List<ServiceComponent> all = new ArrayList<>();

        // Kubernetes in: who owns a GPU (Ray worker and KServe predictor pods), and each workload's tenant, policy
        // and resume annotation (RayClusters, InferenceServices, Namespaces). The stream reads only these caches.
        long resync = reclaimer.informerResync().toMillis();
        PodOwnerIndex owners = new PodOwnerIndex(client, resync, registry);
        ResumeRequests resumeRequests = new ResumeRequests(this::resumes, registry);
        WorkloadDirectory directory = new WorkloadDirectory(
                client, policies(settings.policy(), metrics), resumeRequests::request, resync, registry);
        all.addAll(List.of(owners, directory));

        // Resumes: over HTTP (the controller) or by annotation (the loop resume-requests), outside the stream.
        WorkerScaler scaler =
                new WorkerScaler(client, owners, reclaimer.rawStrategy(), reclaimer.allowKueueNonElastic(), clock);
        this.resumes = new ResumeService(scaler, directory, events, metrics);
        all.add(resumeRequests);

        // Topics in → a pure decision: gpu-samples → windows → reclaim-events, reclaim-intents, notices. The first
        // client waits for the caches to list once (an unknown pod before that only means "not cached yet").
        ReclaimDecider decider =
                new ReclaimDecider(reclaimer.mode(), reclaimer.dryRun(), metrics, clock, settings.keep());
        all.add(StreamsApplication.builder(
                        "reclaim-streams",
                        () -> ReclaimTopology.build(
                                kafka.settings().topicPrefix(), owners, directory, decider, metrics),
                        ReclaimPipeline.properties(
                                kafka.streamsConfig(reclaimer.applicationId()),
                                stateDir(reclaimer),
                                kafka.deadLetterPublisher(reclaimer.applicationId(), registry)))
                .startWhen(
                        "informers synced",
                        () -> owners.synced() && directory.synced(),
                        reclaimer.informerSyncTimeout())
                .startOrder(STREAM)
                .metrics(registry)
                .build());

        // Loops out: the applier of reclaim-intents (its intake commits each outcome with its offset), and the
        // announcer that shows ReclaimPending notices on the objects.
        IntentApplier applier = IntentApplier.create(
                kafka,
                reclaimer.applicationId(),
                new IntentApplier.Options(
                        reclaimer.mode(),
                        reclaimer.dryRun(),
                        settings.applier().workers(),
                        reclaimer.maxActionsPerMinute(),
                        reclaimer.retryAfter()),
                options.scaleAction().apply(scaler::reclaim),
                metrics,
                owners::synced,
                registry,
                kafka.deadLetterPublisher(
                        KafkaAccess.consumerGroup(reclaimer.applicationId(), KafkaAccess.RECLAIM_APPLIER), registry));
        all.addAll(List.of(applier.loop(), applier.intake()));
        AnnouncerLoop announcer =
                AnnouncerLoop.create(new ReclaimAnnouncer(client, scaler::leavesAlone, clock), kafka, registry);
        all.addAll(announcer.components());

        this.components = List.copyOf(all);

        LOG.info(
                "idle-reclaimer: mode={} dryRun={} settings={} applier={} policy={}",
                reclaimer.mode(),
                reclaimer.dryRun(),
                reclaimer,
                settings.applier(),
                settings.policy());
    }

    /** Every component, for service-kit's lifecycle and health. */
    @Override
    public List<ServiceComponent> components() {
        return components;
    }

    /** Resumes a reclaimed workload, for the HTTP edge (and the annotation loop). */
    public ResumeService resumes() {
        return resumes;
    }

    private static PolicyResolver policies(IdlePolicySettings policy, ReclaimerMetrics metrics) {
        return new PolicyResolver(policy.toPolicy(), invalid -> {
            metrics.invalidAnnotation();
            LOG.warn("ignored policy annotation {}", invalid);
        });
    }

    /** The configured directory, or a new temporary one: the windows restore from the changelog either way. */
    private static Path stateDir(ReclaimerSettings settings) {
        String configured = settings.stateDir();
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured);
        }
        try {
            return Files.createTempDirectory("idle-reclaimer-");
        } catch (IOException e) {
            throw new UncheckedIOException("no state directory for the reclaim stream", e);
        }
    }
}
