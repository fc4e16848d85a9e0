package io.gpuaas.local.fleet;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.gpuaas.local.model.JsonPatch;
import io.gpuaas.local.model.OwnerReader;
import io.gpuaas.local.model.WorkloadOwner;
import io.gpuaas.local.operator.PodNaming;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler and device plugin of the simulation: binds each simulated pod to a node with enough free devices of
 * the accelerator it requests, marks it Running, and remembers which devices it holds, so the node's exporter can
 * attribute them to the pod. A pod that does not fit stays Pending and Unschedulable, as on a full cluster. Nodes are
 * read from the {@link FleetState} at each bind, so a flexible node's new MIG instances are handed out once the MIG
 * manager stand-in has applied its config, and none of a node's devices while it is applying one.
 */
public final class DeviceAllocator {

    private static final Logger LOG = LoggerFactory.getLogger(DeviceAllocator.class);

    private final KubernetesClient client;
    private final FleetState fleet;
    private final Map<String, List<GpuDevice>> byPodUid = new HashMap<>();
    private volatile Map<String, Attribution> attributions = Map.of();

    public DeviceAllocator(KubernetesClient client, FleetLayout layout) {
        this(client, new FleetState(layout));
    }

    public DeviceAllocator(KubernetesClient client, FleetState fleet) {
        this.client = client;
        this.fleet = fleet;
    }

    /**
     * The GPU indexes of {@code node} on which a pod holds a device (a whole GPU or one of its MIG instances), as of
     * the last pass: the GPUs a MIG reconfiguration may not touch.
     */
    public Set<Integer> gpusInUse(String node) {
        return byPodUid.values().stream()
                .flatMap(List::stream)
                .filter(d -> d.hostname().equals(node))
                .map(GpuDevice::gpuIndex)
                .collect(Collectors.toCollection(java.util.TreeSet::new));
    }

    /** Device key → the pod holding it, as of the last pass. */
    public Map<String, Attribution> attributions() {
        return attributions;
    }

    public void reconcile(List<WorkloadOwner> owners) {
        List<Pod> pods = client.pods()
                .inAnyNamespace()
                .withLabel(PodNaming.SIMULATED_LABEL, "true")
                .list()
                .getItems();
        Set<String> live = pods.stream().map(p -> p.getMetadata().getUid()).collect(Collectors.toSet());
        byPodUid.keySet().retainAll(live);
        Map<String, WorkloadOwner> ownerByUid =
                owners.stream().collect(Collectors.toMap(WorkloadOwner::uid, Function.identity(), (a, b) -> a));
        Map<String, Attribution> next = new HashMap<>();
        for (Pod pod : pods) {
            if (!byPodUid.containsKey(pod.getMetadata().getUid())) {
                bind(pod);
            }
            Optional<WorkloadOwner> owner = ownerOf(pod, ownerByUid);
            for (GpuDevice device : byPodUid.getOrDefault(pod.getMetadata().getUid(), List.of())) {
                next.put(
                        device.key(),
                        new Attribution(
                                pod.getMetadata().getName(),
                                pod.getMetadata().getNamespace(),
                                pod.getSpec().getContainers().getFirst().getName(),
                                pod.getMetadata().getUid(),
                                owner.map(WorkloadOwner::key)
                                        .orElse(pod.getMetadata().getNamespace() + "/Pod/"
                                                + pod.getMetadata().getName()),
                                started(pod),
                                owner.flatMap(o ->
                                        Attribution.parseForced(o.annotations().get(Attribution.ANNOTATION))),
                                owner.map(o -> Attribution.isVideo(
                                                o.annotations().get(Attribution.ANNOTATION)))
                                        .orElse(false)));
            }
        }
        attributions = Map.copyOf(next);
    }

    private void bind(Pod pod) {
        Map<String, Long> wanted = accelerators(pod);
        Set<GpuDevice> taken = byPodUid.values().stream().flatMap(List::stream).collect(Collectors.toSet());
        for (GpuNode node : fleet.nodes()) {
            if (fleet.paused(node.name())) {
                continue;
            }
            List<GpuDevice> chosen = new ArrayList<>();
            for (Map.Entry<String, Long> want : wanted.entrySet()) {
                node.devices().stream()
                        .filter(d -> d.resource().equals(want.getKey()) && !taken.contains(d))
                        .limit(want.getValue())
                        .forEach(chosen::add);
            }
            if (chosen.size()
                    == wanted.values().stream().mapToLong(Long::longValue).sum()) {
                byPodUid.put(pod.getMetadata().getUid(), List.copyOf(chosen));
                markRunning(pod, node.name());
                return;
            }
        }
        markUnschedulable(pod, wanted);
    }

    private static Map<String, Long> accelerators(Pod pod) {
        Map<String, Long> wanted = new HashMap<>();
        pod.getSpec().getContainers().forEach(c -> {
            Map<String, Quantity> limits =
                    c.getResources() == null || c.getResources().getLimits() == null
                            ? Map.of()
                            : c.getResources().getLimits();
            limits.forEach((resource, quantity) -> {
                if (resource.startsWith(OwnerReader.ACCELERATOR_PREFIX)) {
                    wanted.merge(resource, quantity.getNumericalAmount().longValue(), Long::sum);
                }
            });
        });
        return wanted;
    }

    private void markRunning(Pod pod, String node) {
        String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        String ip = "10.128." + (Math.abs(pod.getMetadata().getUid().hashCode()) % 250) + "."
                + (Math.abs(pod.getMetadata().getName().hashCode()) % 250 + 2);
        Map<String, Object> status = Map.of(
                "phase",
                "Running",
                "podIP",
                ip,
                "startTime",
                now,
                "conditions",
                List.of(
                        Map.of("type", "PodScheduled", "status", "True", "lastTransitionTime", now),
                        Map.of("type", "Ready", "status", "True", "lastTransitionTime", now)),
                "containerStatuses",
                List.of(Map.of(
                        "name",
                        pod.getSpec().getContainers().getFirst().getName(),
                        "ready",
                        true,
                        "restartCount",
                        0,
                        "started",
                        true,
                        "image",
                        pod.getSpec().getContainers().getFirst().getImage(),
                        "imageID",
                        "",
                        "state",
                        Map.of("running", Map.of("startedAt", now)))));
        patch(pod, node, status);
        LOG.info(
                "pod {}/{} bound to {}: {}",
                pod.getMetadata().getNamespace(),
                pod.getMetadata().getName(),
                node,
                byPodUid.get(pod.getMetadata().getUid()).stream()
                        .map(GpuDevice::key)
                        .toList());
    }

    private void markUnschedulable(Pod pod, Map<String, Long> wanted) {
        if (pod.getStatus() != null
                && pod.getStatus().getConditions() != null
                && !pod.getStatus().getConditions().isEmpty()) {
            return;
        }
        String message = "0/" + fleet.nodes().size() + " nodes are available: insufficient "
                + String.join(", ", wanted.keySet());
        patch(
                pod,
                null,
                Map.of(
                        "phase",
                        "Pending",
                        "conditions",
                        List.of(Map.of(
                                "type",
                                "PodScheduled",
                                "status",
                                "False",
                                "reason",
                                "Unschedulable",
                                "message",
                                message,
                                "lastTransitionTime",
                                Instant.now().truncatedTo(ChronoUnit.SECONDS).toString()))));
    }

    private void patch(Pod pod, String node, Map<String, Object> status) {
        var resource = client.pods()
                .inNamespace(pod.getMetadata().getNamespace())
                .withName(pod.getMetadata().getName());
        try {
            if (node != null) {
                resource.patch(JsonPatch.CONTEXT, JsonPatch.set(client, "/spec/nodeName", node));
            }
            resource.subresource("status").patch(JsonPatch.CONTEXT, JsonPatch.set(client, "/status", status));
        } catch (KubernetesClientException e) {
            LOG.debug(
                    "pod {} changed under the allocator: {}", pod.getMetadata().getName(), e.getMessage());
        }
    }

    private static Instant started(Pod pod) {
        try {
            return Instant.parse(pod.getMetadata().getCreationTimestamp());
        } catch (RuntimeException e) {
            return Instant.now();
        }
    }

    private static Optional<WorkloadOwner> ownerOf(Pod pod, Map<String, WorkloadOwner> owners) {
        if (pod.getMetadata().getOwnerReferences() == null) {
            return Optional.empty();
        }
        return pod.getMetadata().getOwnerReferences().stream()
                .map(o -> owners.get(o.getUid()))
                .filter(java.util.Objects::nonNull)
                .findFirst();
    }
}
