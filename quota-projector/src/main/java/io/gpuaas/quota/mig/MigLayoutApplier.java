package io.gpuaas.quota.mig;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Quantity;
import io.gpuaas.events.Labels;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.geometry.GpuGeometry;
import io.gpuaas.events.geometry.GpuGeometryCatalog;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.events.pool.PoolNode;
import io.gpuaas.quota.config.MigLayoutSettings;
import io.gpuaas.quota.metrics.QuotaProjectorMetrics;
import io.gpuaas.quota.model.FlavorResource;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pass over every flexible pool (leader only): read its nodes, plan ({@link MigLayoutPlanner}), write the
 * mig-parted ConfigMap and then the nodes' {@code nvidia.com/mig.config} label and {@code gpuaas.io/mig-layout}
 * annotation where a layout changes, read what the MIG manager reports, and say which bookings wait for a layout that
 * is not ready. It also measures the layouts in force (the nodes' allocatable), which is what quota is built from.
 */
public final class MigLayoutApplier {

    /** The ConfigMap key the MIG manager reads. */
    public static final String CONFIG_KEY = "config.yaml";

    private static final Logger LOG = LoggerFactory.getLogger(MigLayoutApplier.class);

    /** A booking waiting for a layout that is not ready on {@code node}. */
    public record NotReady(Booking booking, String node, String state, String reason) {}

    /** What one pass found. */
    public record Pass(Map<FlavorResource, Long> inForce, List<NotReady> notReady) {}

    private final NodeWrites api;
    private final PoolCatalog catalog;
    private final Supplier<Collection<Booking>> bookings;
    private final MigLayoutSettings settings;
    private final Clock clock;
    private final QuotaProjectorMetrics metrics;
    /** Per node, the last state counted in the metrics, so a state is counted once per config. */
    private final Map<String, String> counted = new HashMap<>();
    /** Per node, what it was last counted blocked for. */
    private final Map<String, String> blockedCounted = new HashMap<>();

    public MigLayoutApplier(
            NodeWrites api,
            PoolCatalog catalog,
            Supplier<Collection<Booking>> bookings,
            MigLayoutSettings settings,
            Clock clock,
            QuotaProjectorMetrics metrics) {
        this.api = api;
        this.catalog = catalog;
        this.bookings = bookings;
        this.settings = settings;
        this.clock = clock;
        this.metrics = metrics;
    }

    /** Whether the catalog has a flexible pool at all (else the loop never runs). */
    public boolean anyFlexible() {
        return catalog.pools().stream().anyMatch(Pool::flexible);
    }

    public Pass apply() {
        Instant now = clock.instant();
        Collection<Booking> known = bookings.get();
        Map<FlavorResource, Long> inForce = new TreeMap<>();
        List<NotReady> notReady = new ArrayList<>();
        Map<String, NodeLayout> configs = new LinkedHashMap<>();
        List<Runnable> labelWrites = new ArrayList<>();
        long failed = 0;
        long blocked = 0;
        for (Pool pool : catalog.pools()) {
            if (!pool.flexible()) {
                continue;
            }
            GpuGeometry geometry =
                    GpuGeometryCatalog.shipped().forModel(pool.gpuModel()).orElseThrow();
            Map<String, Node> nodes = new LinkedHashMap<>();
            Map<String, MigLayoutPlanner.Observed> observed = new LinkedHashMap<>();
            for (PoolNode poolNode : pool.nodes()) {
                api.node(poolNode.name()).ifPresent(n -> {
                    nodes.put(poolNode.name(), n);
                    addAllocatable(inForce, pool.flavor(), n);
                    NodeLayout current = current(n, poolNode.gpus(), geometry);
                    observed.put(poolNode.name(), new MigLayoutPlanner.Observed(current, Set.of()));
                    if (current == null) {
                        LOG.warn(
                                "node {} runs MIG config {} that gpuaas did not write; left alone",
                                poolNode.name(),
                                label(n, NodeWrites.CONFIG_LABEL));
                    }
                });
            }
            var decisions = MigLayoutPlanner.plan(pool, geometry, known, now, settings.leadTime(), observed);
            // Pods are listed only for nodes about to change: they decide whether the change may go ahead.
            Map<String, MigLayoutPlanner.Observed> withPods = new LinkedHashMap<>(observed);
            decisions.values().stream()
                    .filter(MigLayoutPlanner.Decision::changes)
                    .forEach(d -> withPods.put(
                            d.node(), new MigLayoutPlanner.Observed(d.current(), api.resourcesInUse(d.node()))));
            decisions = MigLayoutPlanner.plan(pool, geometry, known, now, settings.leadTime(), withPods);
            for (MigLayoutPlanner.Decision decision : decisions.values()) {
                Node node = nodes.get(decision.node());
                configs.put(decision.current().configName(), decision.current());
                configs.put(decision.target().configName(), decision.target());
                if (decision.changes()) {
                    labelWrites.add(() -> request(decision));
                }
                String state = state(node, decision);
                count(decision.node(), decision.target().configName(), state);
                if ("failed".equals(state)) {
                    failed++;
                }
                if (decision.blocked().isEmpty()) {
                    blockedCounted.remove(decision.node());
                } else {
                    blocked++;
                    countBlocked(decision);
                    decision.blocked().forEach(b -> b.bookings()
                            .forEach(k -> notReady.add(new NotReady(k, decision.node(), "blocked", b.reason()))));
                }
                if (!"success".equals(state)) {
                    String reason = "the MIG manager reports " + NodeWrites.STATE_LABEL + "=" + state + " for "
                            + decision.target().configName();
                    decision.needing().forEach(k -> notReady.add(new NotReady(k, decision.node(), state, reason)));
                }
            }
        }
        if (!labelWrites.isEmpty() || !configs.isEmpty()) {
            // The config first: the MIG manager reads it when the label changes.
            api.writeConfig(MigPartedConfig.render(configs.values()));
        }
        labelWrites.forEach(Runnable::run);
        metrics.layoutNotReady(failed, blocked);
        return new Pass(inForce, notReady);
    }

    private void request(MigLayoutPlanner.Decision decision) {
        String config = decision.target().configName();
        if (api.writeNode(decision.node(), config, LayoutAnnotation.write(decision.target()))) {
            LOG.info(
                    "node {}: MIG layout {} requested ({})",
                    decision.node(),
                    config,
                    decision.target().canonical());
            metrics.layoutChange(decision.node(), "requested");
            counted.remove(decision.node());
        }
    }

    /**
     * {@code success} when the label names the target and the MIG manager reported success; {@code pending} while
     * the change is asked for or applying ({@code rebooting} too); {@code failed} as reported. A node about to be
     * changed is pending.
     */
    private static String state(Node node, MigLayoutPlanner.Decision decision) {
        String config = label(node, NodeWrites.CONFIG_LABEL);
        boolean allDisabled = config == null || MigPartedConfig.ALL_DISABLED.equals(config);
        if (!decision.changes()
                && allDisabled
                && decision.target()
                        .equals(NodeLayout.allWhole(decision.target().gpus().size()))) {
            return "success"; // never laid out by gpuaas: whole GPUs, as installed
        }
        if (decision.changes() || !decision.target().configName().equals(config)) {
            return "pending";
        }
        String reported = label(node, NodeWrites.STATE_LABEL);
        if ("success".equals(reported) || "failed".equals(reported)) {
            return reported;
        }
        return "pending";
    }

    /** Blocked is counted once per node and needed layout (it lasts many passes). */
    private void countBlocked(MigLayoutPlanner.Decision decision) {
        String needed = decision.blocked().toString();
        if (!needed.equals(blockedCounted.put(decision.node(), needed))) {
            metrics.layoutChange(decision.node(), "blocked");
        }
    }

    private void count(String node, String config, String state) {
        if (("success".equals(state) || "failed".equals(state))
                && !(config + "=" + state).equals(counted.put(node, config + "=" + state))) {
            metrics.layoutChange(node, state);
        }
    }

    /**
     * The node's layout as gpuaas last asked for it (its annotation); all whole when it carries none and runs
     * {@code all-disabled} or no config; null when it runs a config gpuaas did not write, or an annotation that is
     * not a valid layout of this GPU model (then it is not gpuaas's to change).
     */
    static NodeLayout current(Node node, int gpus, GpuGeometry geometry) {
        String annotation = node.getMetadata().getAnnotations() == null
                ? null
                : node.getMetadata().getAnnotations().get(Labels.MIG_LAYOUT);
        String config = label(node, NodeWrites.CONFIG_LABEL);
        if (annotation == null) {
            return config == null || MigPartedConfig.ALL_DISABLED.equals(config) ? NodeLayout.allWhole(gpus) : null;
        }
        return LayoutAnnotation.read(annotation)
                .filter(l -> l.gpus().values().stream().allMatch(g -> g.validOn(geometry)))
                .map(l -> NodeLayout.allWhole(gpus).with(l.gpus()))
                .orElse(null);
    }

    private static void addAllocatable(Map<FlavorResource, Long> inForce, String flavor, Node node) {
        Map<String, Quantity> allocatable =
                node.getStatus() == null ? null : node.getStatus().getAllocatable();
        inForce.merge(new FlavorResource(flavor, Pool.WHOLE_GPU_RESOURCE), 0L, Long::sum);
        if (allocatable == null) {
            return;
        }
        allocatable.forEach((resource, amount) -> {
            if (resource.equals(Pool.WHOLE_GPU_RESOURCE) || resource.startsWith("nvidia.com/mig-")) {
                long units = amount.getNumericalAmount().longValue();
                inForce.merge(new FlavorResource(flavor, resource), units, Long::sum);
            }
        });
    }

    private static String label(Node node, String key) {
        Map<String, String> labels = node.getMetadata().getLabels();
        return labels == null ? null : labels.get(key);
    }
}
