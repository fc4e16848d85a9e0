package io.gpuaas.local.fleet;

import io.gpuaas.events.geometry.GpuGeometry;
import io.gpuaas.events.geometry.GpuGeometryCatalog;
import io.gpuaas.events.geometry.GpuInstanceProfile;
import io.gpuaas.events.geometry.MigPlacement;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolApproval;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.events.pool.PoolNode;
import io.gpuaas.events.pool.PoolPrice;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The simulated fleet: H200 nodes of up to eight GPUs. Half the GPUs (rounded up) stay whole, the rest are MIG
 * partitioned 2:3:3 into 1g.18gb, 2g.35gb and 3g.71gb GPUs, so the default 16 GPUs give one node of 8 whole GPUs
 * (pool h200 = 8) and one node with 2 × 7 + 3 × 3 + 3 × 2 slices (14, 9 and 6), matching the shipped pool catalog.
 * On top of these static pools, {@link #of(int, int)} adds the nodes of the flexible pool {@value #FLEX_POOL}, all
 * MIG-disabled at start, whose layout the MIG manager stand-in changes at run time.
 *
 * @param nodes the nodes, whole-GPU nodes first, then the MIG-partitioned ones, then the flexible pool's
 */
public record FleetLayout(List<GpuNode> nodes) {

    public static final String MODEL = "NVIDIA H200";
    /** The value GPU feature discovery puts in {@code nvidia.com/gpu.product}. */
    public static final String PRODUCT_LABEL = "NVIDIA-H200";

    public static final String FULL_POOL = "h200";
    public static final String WHOLE_GPU_RESOURCE = "nvidia.com/gpu";
    public static final String MIG_DISABLED = "all-disabled";
    public static final String MIG_MIXED = "gpuaas-h200-mixed";
    public static final int GPU_MEMORY_MIB = 143_771;
    /** The flexible pool of the local fleet, also its ResourceFlavor. */
    public static final String FLEX_POOL = "h200-flex";
    /** The H200's MIG geometry, by which flexible GPUs are laid out. */
    public static final GpuGeometry GEOMETRY =
            GpuGeometryCatalog.shipped().forModel(MODEL).orElseThrow();

    static final int GPUS_PER_NODE = 8;
    /** The no-show grace the shipped default pools name (default-pools.json), so the local stack behaves alike. */
    static final Duration NO_SHOW_GRACE = Duration.ofMinutes(15);

    private static final java.math.BigDecimal SHIPPED_PRICE = new java.math.BigDecimal("3.50");
    private static final String SHIPPED_CURRENCY = "USD";
    private static final double APPROVAL_HOURS = 84.0;
    private static final Duration APPROVAL_HOLD = Duration.ofHours(24);

    private static final String[] PCI_BUSES = {"53", "64", "75", "86", "97", "A8", "B9", "CA"};

    public FleetLayout {
        nodes = List.copyOf(nodes);
    }

    /** The static layout for {@code gpus} physical GPUs (at least 2: one whole, one partitioned), no flexible pool. */
    public static FleetLayout of(int gpus) {
        return of(gpus, 0);
    }

    /**
     * The static layout for {@code gpus} physical GPUs and, when {@code flexibleGpus} is above 0, the flexible pool
     * {@value #FLEX_POOL} on that many more GPUs (8 to a node, named after the static nodes), all MIG-disabled.
     */
    public static FleetLayout of(int gpus, int flexibleGpus) {
        if (flexibleGpus < 0) {
            throw new IllegalArgumentException("--flexible-gpus must be >= 0, got " + flexibleGpus);
        }
        if (gpus < 2) {
            throw new IllegalArgumentException(
                    "--gpus must be at least 2 (one whole GPU and one MIG-partitioned), got " + gpus);
        }
        int whole = (gpus + 1) / 2;
        int mig = gpus - whole;
        int g2 = Math.round(mig * 3 / 8f);
        int g3 = Math.round(mig * 3 / 8f);
        List<MigProfile> migGpus = new ArrayList<>();
        addCopies(migGpus, MigProfile.G1_18, mig - g2 - g3);
        addCopies(migGpus, MigProfile.G2_35, g2);
        addCopies(migGpus, MigProfile.G3_71, g3);
        List<GpuNode> nodes = new ArrayList<>();
        for (int start = 0; start < whole; start += GPUS_PER_NODE) {
            nodes.add(wholeGpuNode("gpu-node-" + (nodes.size() + 1), Math.min(GPUS_PER_NODE, whole - start)));
        }
        for (int start = 0; start < mig; start += GPUS_PER_NODE) {
            List<MigProfile> slice = migGpus.subList(start, Math.min(mig, start + GPUS_PER_NODE));
            nodes.add(migNode("gpu-node-" + (nodes.size() + 1), slice));
        }
        for (int start = 0; start < flexibleGpus; start += GPUS_PER_NODE) {
            int count = Math.min(GPUS_PER_NODE, flexibleGpus - start);
            nodes.add(flexibleNode(
                    "gpu-node-" + (nodes.size() + 1),
                    FLEX_POOL,
                    MIG_DISABLED,
                    java.util.Collections.nCopies(count, GpuLayout.WHOLE)));
        }
        return new FleetLayout(nodes);
    }

    /** The nodes of the static pools, whose layout never changes. */
    public List<GpuNode> staticNodes() {
        return nodes.stream().filter(n -> !n.flexible()).toList();
    }

    /** The nodes of the flexible pool. */
    public List<GpuNode> flexibleNodes() {
        return nodes.stream().filter(GpuNode::flexible).toList();
    }

    /** The pools this fleet offers: one for whole GPUs, one per MIG profile, each with the GPUs it runs on. */
    public PoolCatalog pools() {
        List<Pool> pools = new ArrayList<>();
        pools.add(new Pool(
                FULL_POOL,
                FULL_POOL,
                WHOLE_GPU_RESOURCE,
                count(WHOLE_GPU_RESOURCE),
                MODEL,
                null,
                NO_SHOW_GRACE,
                gpus(WHOLE_GPU_RESOURCE)));
        for (MigProfile profile : MigProfile.ALL) {
            String id = FULL_POOL + "-mig-" + profile.name();
            pools.add(new Pool(
                    id,
                    id,
                    profile.resource(),
                    count(profile.resource()),
                    MODEL,
                    profile.name(),
                    NO_SHOW_GRACE,
                    gpus(profile.resource())));
        }
        List<PoolNode> flexible = flexibleNodes().stream()
                .map(n -> new PoolNode(n.name(), n.gpus()))
                .toList();
        if (!flexible.isEmpty()) {
            pools.add(Pool.flexible(FLEX_POOL, FLEX_POOL, MODEL, NO_SHOW_GRACE, flexible));
        }
        return new PoolCatalog(pools.stream().map(FleetLayout::shippedPolicy).toList());
    }

    /**
     * The shipped pools' policy on every pool of the fleet: the placeholder price, and approval over half the pool
     * for a week ({@code capacity × 84} unit-hours, none on an empty pool), held a day.
     */
    private static Pool shippedPolicy(Pool pool) {
        Pool priced = pool.withPrices(List.of(new PoolPrice(SHIPPED_PRICE, SHIPPED_CURRENCY, null)));
        // A pool this fleet leaves empty books nothing, so it needs no threshold.
        return pool.capacity() == 0
                ? priced
                : priced.withApproval(new PoolApproval(pool.capacity() * APPROVAL_HOURS, APPROVAL_HOLD));
    }

    public List<GpuDevice> devices() {
        return nodes.stream().flatMap(n -> n.devices().stream()).toList();
    }

    public Optional<GpuNode> node(String name) {
        return nodes.stream().filter(n -> n.name().equals(name)).findFirst();
    }

    private List<GpuDevice> staticDevices() {
        return staticNodes().stream().flatMap(n -> n.devices().stream()).toList();
    }

    private int count(String resource) {
        return (int) staticDevices().stream()
                .filter(d -> d.resource().equals(resource))
                .count();
    }

    private int gpus(String resource) {
        return (int) staticDevices().stream()
                .filter(d -> d.resource().equals(resource))
                .map(GpuDevice::uuid)
                .distinct()
                .count();
    }

    private static GpuNode wholeGpuNode(String name, int gpus) {
        List<GpuDevice> devices = new ArrayList<>();
        for (int i = 0; i < gpus; i++) {
            devices.add(new GpuDevice(name, i, uuid(name, i), pciBus(i), WHOLE_GPU_RESOURCE, null, -1, GPU_MEMORY_MIB));
        }
        return new GpuNode(name, gpus, MIG_DISABLED, devices);
    }

    private static GpuNode migNode(String name, List<MigProfile> gpus) {
        List<GpuDevice> devices = new ArrayList<>();
        for (int i = 0; i < gpus.size(); i++) {
            MigProfile profile = gpus.get(i);
            for (int instanceId : profile.instanceIds()) {
                devices.add(new GpuDevice(
                        name,
                        i,
                        uuid(name, i),
                        pciBus(i),
                        profile.resource(),
                        profile.name(),
                        instanceId,
                        profile.memoryMib()));
            }
        }
        return new GpuNode(name, gpus.size(), MIG_MIXED, devices);
    }

    /**
     * A node of flexible pool {@code pool} whose GPU {@code i} runs {@code layouts.get(i)}: a whole GPU
     * ({@code nvidia.com/gpu}) or its MIG instances ({@code nvidia.com/mig-<profile>}, mixed strategy), each with the
     * GPU instance id the driver gives an instance at that place ({@link #gpuInstanceId}).
     */
    public static GpuNode flexibleNode(String name, String pool, String migConfig, List<GpuLayout> layouts) {
        List<GpuDevice> devices = new ArrayList<>();
        for (int i = 0; i < layouts.size(); i++) {
            GpuLayout layout = layouts.get(i);
            if (!layout.migEnabled()) {
                devices.add(
                        new GpuDevice(name, i, uuid(name, i), pciBus(i), WHOLE_GPU_RESOURCE, null, -1, GPU_MEMORY_MIB));
                continue;
            }
            for (MigPlacement instance : layout.instances()) {
                GpuInstanceProfile profile = GEOMETRY.profile(instance.profile())
                        .orElseThrow(() -> new IllegalArgumentException("H200 offers no profile " + instance));
                devices.add(new GpuDevice(
                        name,
                        i,
                        uuid(name, i),
                        pciBus(i),
                        "nvidia.com/mig-" + profile.name(),
                        profile.name(),
                        gpuInstanceId(profile, instance.start()),
                        instanceMemoryMib(profile)));
            }
        }
        return new GpuNode(name, layouts.size(), migConfig, devices, pool, layouts);
    }

    /**
     * The GPU instance id (dcgm-exporter's {@code GPU_I_ID}) of an instance of {@code profile} at memory slice
     * {@code start}: the driver numbers an 8-slice GPU's instances by place, the whole GPU 0, the halves 1–2, the
     * quarters 3–6, the eighths 7–14, so the static node's 3g.71gb are 1 and 2, its 2g.35gb 3 to 5 and its 1g.18gb
     * 7 to 13.
     */
    static int gpuInstanceId(GpuInstanceProfile profile, int start) {
        int places = GEOMETRY.memorySlices() / profile.memorySlices();
        return places - 1 + start / profile.memorySlices();
    }

    // The static profiles' memory (MigProfile) by the memory slices an instance takes.
    private static int instanceMemoryMib(GpuInstanceProfile profile) {
        return switch (profile.memorySlices()) {
            case 1 -> MigProfile.G1_18.memoryMib();
            case 2 -> MigProfile.G2_35.memoryMib();
            case 4 -> MigProfile.G3_71.memoryMib();
            default -> MigProfile.G3_71.memoryMib() / 4 * profile.memorySlices();
        };
    }

    private static void addCopies(List<MigProfile> into, MigProfile profile, int copies) {
        for (int i = 0; i < copies; i++) {
            into.add(profile);
        }
    }

    // Stable across runs, so a restarted stack reports the same devices and gpu-samples keys stay comparable.
    private static String uuid(String node, int index) {
        return "GPU-" + UUID.nameUUIDFromBytes((node + "/" + index).getBytes(StandardCharsets.UTF_8));
    }

    private static String pciBus(int index) {
        return "00000000:" + PCI_BUSES[index % PCI_BUSES.length] + ":00.0";
    }
}
