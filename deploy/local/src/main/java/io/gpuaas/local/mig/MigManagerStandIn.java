package io.gpuaas.local.mig;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.gpuaas.events.Labels;
import io.gpuaas.local.fleet.FleetLayout;
import io.gpuaas.local.fleet.FleetState;
import io.gpuaas.local.fleet.GpuLayout;
import io.gpuaas.local.fleet.GpuNode;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The GPU Operator's MIG manager for the flexible pool's nodes, one pass per simulation tick. A changed
 * {@value #CONFIG_LABEL} label sets {@value #STATE_LABEL} to {@value #PENDING} and pauses the node's devices; after
 * the delay the named config of the mig-parted ConfigMap is applied: the node's GPUs become its MIG instances (or
 * whole GPUs), its capacity and allocatable follow, and the state becomes {@value #SUCCESS}. It becomes
 * {@value #FAILED}, the layout unchanged, when the config is unknown or does not fit, or a GPU it would change holds
 * a pod's device. A failed config is tried again only when the label changes, as the real manager does.
 */
public final class MigManagerStandIn {

    public static final String CONFIG_LABEL = "nvidia.com/mig.config";
    public static final String STATE_LABEL = "nvidia.com/mig.config.state";
    public static final String PENDING = "pending";
    public static final String SUCCESS = "success";
    public static final String FAILED = "failed";

    private static final Logger LOG = LoggerFactory.getLogger(MigManagerStandIn.class);

    private final KubernetesClient client;
    private final FleetState fleet;
    private final Function<String, Set<Integer>> gpusInUse;
    private final Duration delay;
    private final Clock clock;
    private final MigPlanner planner = new MigPlanner(FleetLayout.GEOMETRY);
    /** The label value last seen per node; a different one is a new request. */
    private final Map<String, String> observed = new HashMap<>();
    /** The config waiting to be applied per node, and when. */
    private final Map<String, Request> requests = new HashMap<>();

    private record Request(String config, Instant due) {}

    /**
     * @param gpusInUse the GPU indexes of a node on which a pod holds a device
     * @param delay     how long a config stays pending before it is applied
     */
    public MigManagerStandIn(
            KubernetesClient client,
            FleetState fleet,
            Function<String, Set<Integer>> gpusInUse,
            Duration delay,
            Clock clock) {
        if (delay.isNegative()) {
            throw new IllegalArgumentException("the MIG manager's delay must be >= 0, got " + delay);
        }
        this.client = client;
        this.fleet = fleet;
        this.gpusInUse = gpusInUse;
        this.delay = delay;
        this.clock = clock;
        fleet.nodes().stream().filter(GpuNode::flexible).forEach(n -> observed.put(n.name(), n.migConfig()));
    }

    /** One pass over the flexible nodes. */
    public void reconcile() {
        for (GpuNode node : fleet.nodes()) {
            if (node.flexible()) {
                reconcile(node);
            }
        }
    }

    private void reconcile(GpuNode node) {
        Node k8s = client.nodes().withName(node.name()).get();
        if (k8s == null) {
            return;
        }
        String wanted = labels(k8s).get(CONFIG_LABEL);
        if (!Objects.equals(wanted, observed.get(node.name()))) {
            if (wanted == null) {
                requests.remove(node.name());
                fleet.pause(node.name(), false);
            } else {
                k8s = write(NodeStatusWriter.state(k8s, PENDING));
                requests.put(node.name(), new Request(wanted, clock.instant().plus(delay)));
                fleet.pause(node.name(), true);
                LOG.info("node {}: MIG config {} requested, pending for {}", node.name(), wanted, delay);
            }
            observed.put(node.name(), wanted);
        }
        Request request = requests.get(node.name());
        if (request != null && !clock.instant().isBefore(request.due())) {
            apply(node, k8s, request.config());
            requests.remove(node.name());
            fleet.pause(node.name(), false);
        }
    }

    private void apply(GpuNode node, Node k8s, String config) {
        MigPartedConfig file;
        try {
            file = config();
        } catch (IllegalArgumentException e) {
            fail(node, k8s, config, MigPartedConfig.NAMESPACE + "/" + MigPartedConfig.NAME + ": " + e.getMessage());
            return;
        }
        var entries = file.config(config);
        if (entries.isEmpty()) {
            fail(
                    node,
                    k8s,
                    config,
                    "no config " + config + " in " + file.configs().keySet());
            return;
        }
        MigPlanner.Plan plan = planner.plan(node.layouts(), entries.get(), hints(k8s));
        switch (plan) {
            case MigPlanner.Invalid invalid -> fail(node, k8s, config, invalid.reason());
            case MigPlanner.Applicable applicable -> {
                Set<Integer> busy = new TreeSet<>(gpusInUse.apply(node.name()));
                busy.retainAll(applicable.changed());
                if (!busy.isEmpty()) {
                    fail(node, k8s, config, "GPUs " + busy + " would change but pods hold their devices");
                    return;
                }
                GpuNode next = FleetLayout.flexibleNode(node.name(), node.flexiblePool(), config, applicable.layouts());
                write(NodeStatusWriter.applied(k8s, node, next));
                fleet.replace(next);
                LOG.info(
                        "node {}: MIG config {} applied, GPUs {} changed: {}",
                        node.name(),
                        config,
                        applicable.changed(),
                        next.capacity());
            }
        }
    }

    private void fail(GpuNode node, Node k8s, String config, String reason) {
        write(NodeStatusWriter.state(k8s, FAILED));
        LOG.warn("node {}: MIG config {} failed, layout unchanged: {}", node.name(), config, reason);
    }

    private MigPartedConfig config() {
        ConfigMap map = client.configMaps()
                .inNamespace(MigPartedConfig.NAMESPACE)
                .withName(MigPartedConfig.NAME)
                .get();
        if (map == null) {
            return MigPartedConfig.DEFAULT;
        }
        String yaml = map.getData() == null ? null : map.getData().get(MigPartedConfig.KEY);
        if (yaml == null) {
            throw new IllegalArgumentException("no key " + MigPartedConfig.KEY);
        }
        return MigPartedConfig.parse(yaml);
    }

    private static Map<Integer, GpuLayout> hints(Node k8s) {
        Map<String, String> annotations = k8s.getMetadata().getAnnotations();
        String value = annotations == null ? null : annotations.get(Labels.MIG_LAYOUT);
        if (value == null) {
            return Map.of();
        }
        try {
            return MigLayoutAnnotation.parse(value);
        } catch (IllegalArgumentException e) {
            LOG.warn("node {}: {} ignored: {}", k8s.getMetadata().getName(), Labels.MIG_LAYOUT, e.getMessage());
            return Map.of();
        }
    }

    // A full update (the API server in the local stack has no server-side apply); a conflict fails the pass, and
    // the next one starts again from what the server holds.
    private Node write(Node node) {
        try {
            return client.nodes().resource(node).update();
        } catch (KubernetesClientException e) {
            throw new IllegalStateException(
                    "node " + node.getMetadata().getName() + " changed under the MIG manager: " + e.getMessage(), e);
        }
    }

    private static Map<String, String> labels(Node node) {
        return node.getMetadata().getLabels() == null
                ? Map.of()
                : node.getMetadata().getLabels();
    }
}
