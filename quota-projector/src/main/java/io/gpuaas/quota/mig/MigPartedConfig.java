package io.gpuaas.quota.mig;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The {@code config.yaml} gpuaas keeps in the MIG manager's ConfigMap, in mig-parted's format ({@code version: v1},
 * {@code mig-configs}: per config name a list of {@code {devices, mig-enabled, mig-devices}}). It always holds
 * {@code all-disabled}; every other config is a {@link NodeLayout} under its {@link NodeLayout#configName()}, GPUs of
 * equal layout grouped into one entry by index. mig-parted takes counts per profile, not start slices: the slices are
 * on the node's {@code gpuaas.io/mig-layout} annotation (a real MIG manager creates the instances in its own order,
 * which yields a valid layout of the same counts). Rendered by hand, sorted, so the same layouts give the same bytes.
 */
public final class MigPartedConfig {

    /** The config every GPU Operator install knows: MIG off on every GPU. */
    public static final String ALL_DISABLED = "all-disabled";

    private MigPartedConfig() {}

    /** {@code config.yaml} holding {@code all-disabled} and one config per distinct layout. */
    public static String render(Collection<NodeLayout> layouts) {
        SortedMap<String, NodeLayout> byName = new TreeMap<>();
        layouts.forEach(l -> byName.put(l.configName(), l));
        StringBuilder yaml = new StringBuilder("version: v1\nmig-configs:\n");
        yaml.append("  ").append(ALL_DISABLED).append(":\n");
        yaml.append("    - devices: all\n      mig-enabled: false\n");
        byName.forEach((name, layout) -> {
            yaml.append("  ").append(name).append(":\n");
            groups(layout).forEach((gpuLayout, indexes) -> {
                yaml.append("    - devices: ").append(indexes).append('\n');
                yaml.append("      mig-enabled: ").append(gpuLayout.mig()).append('\n');
                if (gpuLayout.mig()) {
                    yaml.append("      mig-devices:");
                    SortedMap<String, Integer> devices = gpuLayout.devices();
                    if (devices.isEmpty()) {
                        yaml.append(" {}\n");
                    } else {
                        yaml.append('\n');
                        devices.forEach((profile, count) -> yaml.append("        \"")
                                .append(profile)
                                .append("\": ")
                                .append(count)
                                .append('\n'));
                    }
                }
            });
        });
        return yaml.toString();
    }

    /** GPU indexes per distinct layout, in order of first index. */
    private static Map<GpuLayout, List<Integer>> groups(NodeLayout layout) {
        Map<GpuLayout, List<Integer>> groups = new LinkedHashMap<>();
        layout.gpus().forEach((index, gpu) -> groups.computeIfAbsent(gpu, g -> new ArrayList<>())
                .add(index));
        return groups;
    }
}
