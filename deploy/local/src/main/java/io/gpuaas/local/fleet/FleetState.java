package io.gpuaas.local.fleet;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The fleet as it is now: the layout's nodes, of which the flexible ones change when the MIG manager stand-in applies
 * a config. The simulation thread writes it; the exporters' threads read whole {@link GpuNode} snapshots, so a scrape
 * sees a node either before or after a change, never half of it. A node whose config is being applied is
 * <em>paused</em>: as the real MIG manager stops the device plugin, no new pod is bound to its devices meanwhile.
 */
public final class FleetState {

    private volatile List<GpuNode> nodes;
    private final Set<String> paused = ConcurrentHashMap.newKeySet();

    public FleetState(FleetLayout layout) {
        this.nodes = layout.nodes();
    }

    /** Every node, in the layout's order. */
    public List<GpuNode> nodes() {
        return nodes;
    }

    public Optional<GpuNode> node(String name) {
        return nodes.stream().filter(n -> n.name().equals(name)).findFirst();
    }

    /** Replaces the node of the same name (a flexible node after its MIG config was applied). */
    public synchronized void replace(GpuNode node) {
        List<GpuNode> next = new ArrayList<>(nodes);
        int index = -1;
        for (int i = 0; i < next.size(); i++) {
            if (next.get(i).name().equals(node.name())) {
                index = i;
            }
        }
        if (index < 0) {
            throw new IllegalArgumentException("no node " + node.name() + " in the fleet");
        }
        next.set(index, node);
        nodes = List.copyOf(next);
    }

    /** Stops or resumes handing out {@code node}'s devices to new pods. */
    public void pause(String node, boolean pause) {
        if (pause) {
            paused.add(node);
        } else {
            paused.remove(node);
        }
    }

    public boolean paused(String node) {
        return paused.contains(node);
    }
}
