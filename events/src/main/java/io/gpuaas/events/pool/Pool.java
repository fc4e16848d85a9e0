package io.gpuaas.events.pool;

import io.gpuaas.events.geometry.GpuGeometryCatalog;
import io.gpuaas.events.geometry.GpuInstanceProfile;
import java.time.Duration;
import java.util.List;

/**
 * A bookable pool: whole GPUs or one MIG slice size of one GPU model (a <em>static</em> pool), or a
 * <em>flexible</em> pool of GPUs gpuaas lays out itself, booked by any MIG profile of its model or by whole GPUs. Pools are configuration, shared by
 * booking-service (capacity to decide against) and quota-projector (physical capacity per flavor and resource).
 *
 * <p>A MIG pool is <em>static</em>: its profile is laid out alone on each of its GPUs, as many to a GPU as the GPU
 * holds ({@code k}, from {@link io.gpuaas.events.geometry.GpuGeometry#mostInstances}), so a unit weighs {@code 1/k}
 * of a GPU ({@link #gpuFraction()}).
 *
 * @param id       pool id used in bookings and as the command key, e.g. {@code h200-mig-2g.35gb}
 * @param flavor   Kueue ResourceFlavor name
 * @param resource Kubernetes extended resource, e.g. {@code nvidia.com/gpu} or {@code nvidia.com/mig-2g.35gb}
 * @param capacity physical units in the cluster
 * @param gpuModel GPU model as {@code nvidia-smi} prints it, e.g. {@code NVIDIA H200}
 * @param migProfile MIG profile such as {@code 2g.35gb}, or null for whole GPUs
 * @param noShowGrace how long an active booking of this pool may go without a Workload of its tenant before
 *                    booking-service releases it as a no-show; zero turns the release off, null (absent in the file)
 *                    means booking-service's default ({@code gpuaas.booking.lifecycle.no-show-grace})
 * @param gpus     how many physical GPUs the pool's units sit on, or null (absent in the file) when not declared;
 *                 when given, the capacity must fit on them ({@code k} units of a MIG profile per GPU)
 * @param kind     {@code static} (or null, absent in the file) or {@code flexible}
 * @param nodes    a flexible pool's nodes and their GPUs (its capacity is their GPU count, in whole GPUs); null or
 *                 empty for a static pool
 * @param prices   what a GPU-hour of this pool costs, from which UTC day ({@link PoolPrice}), in ascending order of
 *                 their first day; null or empty (absent in the file): the pool is not priced, its cost is 0
 * @param approval bookings over this size wait for an admin ({@link PoolApproval}); null (absent in the file): no
 *                 booking of the pool needs approval
 * @param keep     how long "keep it" answers may keep a booking's workloads from reclaim ({@link PoolKeep}); null
 *                 (absent in the file): {@link PoolKeep#DEFAULT}
 * @param overBudget what a tenant over its month's budget may still do on this pool ({@link PoolOverBudget}); null
 *                 (absent in the file): nothing
 *
 * <p>A flexible pool has no {@code migProfile}; its {@code resource} is the whole-GPU resource
 * ({@code nvidia.com/gpu}) and a booking of a profile {@code p} reserves {@link #resourceFor(String)}
 * ({@code nvidia.com/mig-p}) under the pool's one flavor. Its model must be in the geometry catalog.
 */
public record Pool(
        String id,
        String flavor,
        String resource,
        int capacity,
        String gpuModel,
        String migProfile,
        Duration noShowGrace,
        Integer gpus,
        String kind,
        List<PoolNode> nodes,
        List<PoolPrice> prices,
        PoolApproval approval,
        PoolKeep keep,
        PoolOverBudget overBudget) {

    /** {@link #kind()} of a pool gpuaas lays out itself. */
    public static final String FLEXIBLE = "flexible";

    /** {@link #kind()} of a pool whose GPUs the platform team laid out (the default). */
    public static final String STATIC = "static";

    /** The resource of a whole GPU, whatever the pool. */
    public static final String WHOLE_GPU_RESOURCE = "nvidia.com/gpu";

    private static final String MIG_RESOURCE_PREFIX = "nvidia.com/mig-";

    /**
     * Rejects a pool without id, flavor or resource, with negative capacity, with a MIG profile its GPU model does
     * not offer (a model the geometry catalog does not list: one that names no {@code <N>g} compute slices), with a
     * {@code +me} profile (one a GPU: it would waste the rest) or a compute-instance profile {@code <C>c.<profile>}
     * (not supported in a pool), or with more units than its {@code gpus} hold. At catalog load, rather than on every ledger read that weighs it.
     */
    public Pool {
        if (id == null
                || id.isBlank()
                || flavor == null
                || flavor.isBlank()
                || resource == null
                || resource.isBlank()) {
            throw new IllegalArgumentException("a pool needs id, flavor and resource");
        }
        if (capacity < 0) {
            throw new IllegalArgumentException("pool " + id + ": capacity must be >= 0");
        }
        if (noShowGrace != null && noShowGrace.isNegative()) {
            throw new IllegalArgumentException("pool " + id + ": noShowGrace must be >= 0 (PT0S turns it off)");
        }
        if (kind != null && !STATIC.equals(kind) && !FLEXIBLE.equals(kind)) {
            throw new IllegalArgumentException("pool " + id + ": kind must be static or flexible, got " + kind);
        }
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
        if (FLEXIBLE.equals(kind)) {
            FlexibleCheck.check(id, resource, capacity, gpuModel, migProfile, gpus, nodes);
        } else {
            if (!nodes.isEmpty()) {
                throw new IllegalArgumentException("pool " + id + ": only a flexible pool lists nodes");
            }
            // The fields are assigned only after this body: the check takes the parameters.
            PoolWeight.check(id, capacity, gpuModel, migProfile, gpus);
        }
        prices = PoolPrices.check(id, prices);
    }

    /** Whether a tenant over its budget may run preemptible work on this pool's idle capacity. */
    public boolean overBudgetMayBorrow() {
        return overBudget != null && overBudget.borrow();
    }

    /** This pool with the over-budget policy {@code policy} (null: none). */
    public Pool withOverBudget(PoolOverBudget policy) {
        return withPolicies(prices, approval, keep, policy);
    }

    /** A pool without prices or an approval policy (as before they were added). */
    public Pool(
            String id,
            String flavor,
            String resource,
            int capacity,
            String gpuModel,
            String migProfile,
            Duration noShowGrace,
            Integer gpus,
            String kind,
            List<PoolNode> nodes) {
        this(
                id,
                flavor,
                resource,
                capacity,
                gpuModel,
                migProfile,
                noShowGrace,
                gpus,
                kind,
                nodes,
                null,
                null,
                null,
                null);
    }

    /** A pool with prices and an approval policy, its keep bounds the default and no over-budget policy (as before
     * they were added). */
    public Pool(
            String id,
            String flavor,
            String resource,
            int capacity,
            String gpuModel,
            String migProfile,
            Duration noShowGrace,
            Integer gpus,
            String kind,
            List<PoolNode> nodes,
            List<PoolPrice> prices,
            PoolApproval approval) {
        this(
                id,
                flavor,
                resource,
                capacity,
                gpuModel,
                migProfile,
                noShowGrace,
                gpus,
                kind,
                nodes,
                prices,
                approval,
                null,
                null);
    }

    /** The bounds on keep answers for this pool's bookings: its own, else {@link PoolKeep#DEFAULT}. */
    public PoolKeep keepPolicy() {
        return keep != null ? keep : PoolKeep.DEFAULT;
    }

    /** This pool with the keep bounds {@code newKeep} (null: the default). */
    public Pool withKeep(PoolKeep newKeep) {
        return withPolicies(prices, approval, newKeep, overBudget);
    }

    /** This pool with {@code schedule} as its prices. */
    public Pool withPrices(List<PoolPrice> schedule) {
        return withPolicies(schedule, approval, keep, overBudget);
    }

    /**
     * The price of a GPU-hour of this pool on the UTC {@code day}: the last entry whose first day is at or before it;
     * empty when the pool has no price then (unpriced, or the day is before its first price).
     */
    public java.util.Optional<PoolPrice> priceOn(java.time.LocalDate day) {
        PoolPrice found = null;
        for (PoolPrice price : prices) {
            if (price.appliesTo(day)) {
                found = price;
            }
        }
        return java.util.Optional.ofNullable(found);
    }

    /** Whether gpuaas lays out this pool's GPUs itself. */
    public boolean flexible() {
        return FLEXIBLE.equals(kind);
    }

    /**
     * The profiles a booking of this flexible pool may name, as its GPU model offers them and in the catalog's
     * order (no {@code +me} or compute-instance profiles); empty for a static pool. A booking naming none books
     * whole GPUs.
     */
    public List<String> bookableProfiles() {
        if (!flexible()) {
            return List.of();
        }
        return GpuGeometryCatalog.shipped().forModel(gpuModel).orElseThrow().profiles().stream()
                .map(GpuInstanceProfile::name)
                .filter(FlexibleCheck::bookable)
                .toList();
    }

    /**
     * The resource a booking of {@code profile} reserves: on a flexible pool {@code nvidia.com/mig-<profile>}, or
     * {@code nvidia.com/gpu} for a whole GPU (null profile); on a static pool always the pool's own resource.
     */
    public String resourceFor(String profile) {
        if (!flexible() || profile == null) {
            return flexible() ? WHOLE_GPU_RESOURCE : resource;
        }
        return MIG_RESOURCE_PREFIX + profile;
    }

    /**
     * The MIG profile a resource of this pool stands for: {@code nvidia.com/mig-3g.71gb} → {@code 3g.71gb}; null for
     * the whole-GPU resource or one that names no MIG profile; on a static pool, its own profile.
     */
    public String profileOf(String resourceName) {
        if (!flexible()) {
            return migProfile;
        }
        return resourceName != null && resourceName.startsWith(MIG_RESOURCE_PREFIX)
                ? resourceName.substring(MIG_RESOURCE_PREFIX.length())
                : null;
    }

    /**
     * The fraction of one GPU a unit of {@code profile} (null: a whole GPU) is on this pool, by which the ledger
     * weighs its GPU-hours; on a static pool, {@link #gpuFraction()} whatever is asked. A flexible unit weighs what
     * a GPU laid out with that profile alone charges per unit ({@code 1/k}), so a flexible booking costs what the
     * same booking on a static pool does.
     */
    public double gpuFraction(String profile) {
        return flexible() ? gpuFraction(gpuModel, profile) : gpuFraction();
    }

    /**
     * The fraction of one GPU a unit of this pool is, by which the ledger weighs its GPU-hours:
     * {@link #gpuFraction(String, String)} of its model and profile.
     */
    public double gpuFraction() {
        return gpuFraction(gpuModel, migProfile);
    }

    /**
     * The fraction of one GPU of {@code gpuModel} that a unit of a static pool of {@code migProfile} is: 1 without a
     * profile; {@code 1/k} when the geometry catalog lists the model, {@code k} being the most instances of the
     * profile one GPU holds (H200: 1g.18gb 1/7, 1g.35gb 1/4, 2g.35gb 1/3, 3g.71gb 1/2, 4g.71gb and 7g.141gb 1), so
     * a GPU's units add up to one GPU whatever profile it runs; for a model the catalog does not list, as before
     * the catalog: {@code N} of the GPU's compute slices for a profile {@code <N>g.<memory>} (or a compute-instance
     * profile {@code <C>c.<N>g.<memory>}), which are 4 on an A30 and 7 on the A100/H100/H200/B200 class. A
     * compute-instance profile weighs as the GPU instance it runs in.
     *
     * @throws IllegalArgumentException when the model's geometry offers no such profile, or for an unlisted model
     *                                  when the profile names no {@code <N>g} part or more slices than the GPU has
     */
    public static double gpuFraction(String gpuModel, String migProfile) {
        return PoolWeight.of(gpuModel, migProfile);
    }

    /** This pool's shape with the four policies given: what every {@code with...} copy builds. */
    private Pool withPolicies(
            List<PoolPrice> newPrices, PoolApproval newApproval, PoolKeep newKeep, PoolOverBudget newOverBudget) {
        return new Pool(
                id,
                flavor,
                resource,
                capacity,
                gpuModel,
                migProfile,
                noShowGrace,
                gpus,
                kind,
                nodes,
                newPrices,
                newApproval,
                newKeep,
                newOverBudget);
    }

    /** This pool with the approval policy {@code newApproval} (null: none). */
    public Pool withApproval(PoolApproval newApproval) {
        return withPolicies(prices, newApproval, keep, overBudget);
    }

    /** A static pool (no kind, no nodes). */
    public Pool(
            String id,
            String flavor,
            String resource,
            int capacity,
            String gpuModel,
            String migProfile,
            Duration noShowGrace,
            Integer gpus) {
        this(id, flavor, resource, capacity, gpuModel, migProfile, noShowGrace, gpus, null, null, null, null);
    }

    /**
     * A flexible pool of {@code gpuModel} on {@code nodes}: resource {@code nvidia.com/gpu}, capacity and
     * {@code gpus} the nodes' GPU count.
     */
    public static Pool flexible(String id, String flavor, String gpuModel, Duration noShowGrace, List<PoolNode> nodes) {
        int total = nodes.stream().mapToInt(PoolNode::gpus).sum();
        return new Pool(
                id, flavor, WHOLE_GPU_RESOURCE, total, gpuModel, null, noShowGrace, total, FLEXIBLE, nodes, null, null);
    }

    /** A pool with the service's default no-show grace and no declared GPU count. */
    public Pool(String id, String flavor, String resource, int capacity, String gpuModel, String migProfile) {
        this(id, flavor, resource, capacity, gpuModel, migProfile, null, null, null, null, null, null);
    }

    /** A pool with no declared GPU count. */
    public Pool(
            String id,
            String flavor,
            String resource,
            int capacity,
            String gpuModel,
            String migProfile,
            Duration noShowGrace) {
        this(id, flavor, resource, capacity, gpuModel, migProfile, noShowGrace, null, null, null, null, null);
    }
}
