package io.gpuaas.local.fleet;

import java.util.List;

/**
 * The H200 MIG profiles the local fleet partitions GPUs into. Each partitioned GPU holds instances of one profile
 * only, with the GPU instance ids the driver assigns to that profile.
 *
 * @param name          profile name, e.g. {@code 1g.18gb}
 * @param instanceIds   GPU_I_IDs of the instances one GPU holds
 * @param memoryMib     framebuffer memory of one instance
 */
public record MigProfile(String name, List<Integer> instanceIds, int memoryMib) {

    public static final MigProfile G1_18 = new MigProfile("1g.18gb", List.of(7, 8, 9, 10, 11, 12, 13), 16_640);
    public static final MigProfile G2_35 = new MigProfile("2g.35gb", List.of(3, 4, 5), 33_280);
    public static final MigProfile G3_71 = new MigProfile("3g.71gb", List.of(1, 2), 69_632);

    public static final List<MigProfile> ALL = List.of(G1_18, G2_35, G3_71);

    /** Instances one GPU yields. */
    public int perGpu() {
        return instanceIds.size();
    }

    /** Kubernetes extended resource under the mixed MIG strategy. */
    public String resource() {
        return "nvidia.com/mig-" + name;
    }
}
