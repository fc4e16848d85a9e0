package io.gpuaas.reclaim.k8s;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.gpuaas.events.Labels;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.kit.k8s.InformerCache;
import io.gpuaas.kit.runtime.ForwardingComponent;
import io.gpuaas.kit.runtime.ServiceComponent;
import io.gpuaas.kube.kserve.v1beta1.InferenceService;
import io.gpuaas.kube.ray.v1.RayCluster;
import io.gpuaas.reclaim.model.PolicyResolver;
import io.gpuaas.reclaim.model.WorkloadInfo;
import io.gpuaas.reclaim.model.WorkloadLookup;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Informer caches of RayClusters, InferenceServices and Namespaces, turned into a per-workload {@link WorkloadInfo}
 * (tenant, resolved policy, last resume) that the stream threads read without calling the API server. Also reports
 * objects carrying {@code gpuaas.io/resume: "true"} to the resume handler. Component {@code workload-directory}: the
 * informers run in service-kit's {@code InformerCache} (ready once all have listed and while they watch).
 */
public final class WorkloadDirectory implements WorkloadLookup, ForwardingComponent, AutoCloseable {

    private static final String NAMESPACES = "namespaces";
    private static final String RAY_CLUSTERS = "rayclusters";
    private static final String INFERENCE_SERVICES = "inferenceservices";

    private final PolicyResolver policies;
    private final Consumer<WorkloadRef> resumeRequested;
    private final Map<WorkloadRef, WorkloadInfo> infos = new ConcurrentHashMap<>();
    private final Map<WorkloadRef, HasMetadata> objects = new ConcurrentHashMap<>();
    private final Map<String, Namespace> namespaces = new ConcurrentHashMap<>();
    private final InformerCache<HasMetadata> informers;

    public WorkloadDirectory(
            KubernetesClient client,
            PolicyResolver policies,
            Consumer<WorkloadRef> resumeRequested,
            long resyncMillis) {
        this(client, policies, resumeRequested, resyncMillis, new PrometheusRegistry());
    }

    public WorkloadDirectory(
            KubernetesClient client,
            PolicyResolver policies,
            Consumer<WorkloadRef> resumeRequested,
            long resyncMillis,
            PrometheusRegistry registry) {
        this.policies = policies;
        this.resumeRequested = resumeRequested;
        this.informers = InformerCache.<HasMetadata>builder("workload-directory")
                .kind(NAMESPACES, () -> client.namespaces().runnableInformer(resyncMillis), new NamespaceHandler())
                .kind(
                        RAY_CLUSTERS,
                        () -> client.resources(RayCluster.class)
                                .inAnyNamespace()
                                .runnableInformer(resyncMillis),
                        new WorkloadHandler())
                .kind(
                        INFERENCE_SERVICES,
                        () -> client.resources(InferenceService.class)
                                .inAnyNamespace()
                                .runnableInformer(resyncMillis),
                        new WorkloadHandler())
                .metrics(registry)
                .build();
    }

    public boolean synced() {
        return informers.synced();
    }

    /** Whether every informer holds a live watch: false while the API server cannot be reached. */
    public boolean watching() {
        return List.of(NAMESPACES, RAY_CLUSTERS, INFERENCE_SERVICES).stream().allMatch(informers::watching);
    }

    @Override
    public ServiceComponent component() {
        return informers;
    }

    @Override
    public Optional<WorkloadInfo> find(WorkloadRef workload) {
        return Optional.ofNullable(infos.get(workload));
    }

    /** The tenant owning a namespace, from its {@code gpuaas.io/tenant} label; null when unlabelled or unknown. */
    public String tenantOf(String namespace) {
        Namespace ns = namespaces.get(namespace);
        Map<String, String> labels = ns == null ? null : ns.getMetadata().getLabels();
        return labels == null ? null : labels.get(Labels.TENANT);
    }

    private void refresh(WorkloadRef ref, HasMetadata object) {
        Namespace ns = namespaces.get(ref.namespace());
        Map<String, String> nsAnnotations = ns == null || ns.getMetadata().getAnnotations() == null
                ? Map.of()
                : ns.getMetadata().getAnnotations();
        Map<String, String> annotations = KubeResources.annotations(object);
        infos.put(
                ref,
                new WorkloadInfo(
                        ref,
                        tenantOf(ref.namespace()),
                        policies.resolve(nsAnnotations, annotations),
                        resumedAt(annotations.get(KubeResources.RESUMED_AT))));
    }

    private static long resumedAt(String value) {
        if (value == null) {
            return 0L;
        }
        try {
            return Instant.parse(value).toEpochMilli();
        } catch (DateTimeParseException e) {
            return 0L;
        }
    }

    private static WorkloadRef refOf(HasMetadata r) {
        return new WorkloadRef(
                r.getMetadata().getNamespace(), r.getKind(), r.getMetadata().getName());
    }

    @Override
    public void close() {
        stop(Duration.ofSeconds(2));
    }

    /** One handler for both kinds: it reads only metadata. */
    private final class WorkloadHandler implements ResourceEventHandler<HasMetadata> {
        @Override
        public void onAdd(HasMetadata object) {
            WorkloadRef ref = refOf(object);
            objects.put(ref, object);
            refresh(ref, object);
            if ("true".equalsIgnoreCase(KubeResources.annotations(object).get(KubeResources.RESUME))) {
                resumeRequested.accept(ref);
            }
        }

        @Override
        public void onUpdate(HasMetadata oldObject, HasMetadata newObject) {
            onAdd(newObject);
        }

        @Override
        public void onDelete(HasMetadata object, boolean deletedFinalStateUnknown) {
            WorkloadRef ref = refOf(object);
            objects.remove(ref);
            infos.remove(ref);
        }
    }

    private final class NamespaceHandler implements ResourceEventHandler<Namespace> {
        @Override
        public void onAdd(Namespace ns) {
            namespaces.put(ns.getMetadata().getName(), ns);
            objects.forEach((ref, object) -> {
                if (ref.namespace().equals(ns.getMetadata().getName())) {
                    refresh(ref, object);
                }
            });
        }

        @Override
        public void onUpdate(Namespace oldNs, Namespace newNs) {
            onAdd(newNs);
        }

        @Override
        public void onDelete(Namespace ns, boolean deletedFinalStateUnknown) {
            namespaces.remove(ns.getMetadata().getName());
        }
    }
}
