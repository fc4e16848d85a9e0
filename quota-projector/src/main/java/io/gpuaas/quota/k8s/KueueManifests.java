package io.gpuaas.quota.k8s;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.gpuaas.events.Labels;
import io.gpuaas.kube.kueue.v1beta2.ClusterQueue;
import io.gpuaas.kube.kueue.v1beta2.ClusterQueueSpec;
import io.gpuaas.kube.kueue.v1beta2.Cohort;
import io.gpuaas.kube.kueue.v1beta2.CohortSpec;
import io.gpuaas.kube.kueue.v1beta2.LocalQueue;
import io.gpuaas.kube.kueue.v1beta2.LocalQueueSpec;
import io.gpuaas.kube.kueue.v1beta2.WorkloadPriorityClass;
import io.gpuaas.kube.kueue.v1beta2.clusterqueuespec.Preemption;
import io.gpuaas.kube.kueue.v1beta2.clusterqueuespec.preemption.BorrowWithinCohort;
import io.gpuaas.kube.odh.v1.HardwareProfile;
import io.gpuaas.kube.odh.v1.HardwareProfileSpec;
import io.gpuaas.kube.odh.v1.hardwareprofilespec.Identifiers;
import io.gpuaas.kube.odh.v1.hardwareprofilespec.Scheduling;
import io.gpuaas.kube.odh.v1.hardwareprofilespec.scheduling.Kueue;
import io.gpuaas.quota.model.BorrowQueue;
import io.gpuaas.quota.model.DesiredQuota;
import io.gpuaas.quota.model.FlavorResource;
import io.gpuaas.quota.model.QuotaPlan;
import io.gpuaas.quota.model.TenantQueue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;

/**
 * Renders {@link DesiredQuota} into Kueue v1beta2 objects (and OpenShift AI HardwareProfiles), typed by kube-models.
 * Pure: the same input always gives the same objects, so comparing them with the cluster is meaningful.
 */
public final class KueueManifests {

    /** {@code spec.stopPolicy} of a queue that admits (and of a LocalQueue). */
    public static final String RUNNING = "None";
    /** {@code spec.stopPolicy} of a tenant queue whose bookings ended while Workloads still hold quota in it. */
    public static final String HOLD_AND_DRAIN = "HoldAndDrain";

    /** The Kueue WorkloadPriorityClass of over-budget work on borrowed capacity: jobs select it by label. */
    public static final String BORROWED_PRIORITY_CLASS = "gpuaas-borrowed";
    /** Its value: below the default 0 of booked work, so booked tenants come first and preempt it. */
    public static final int BORROWED_PRIORITY = -100;

    private final ManifestSettings settings;

    public KueueManifests(ManifestSettings settings) {
        this.settings = settings;
    }

    public ManifestSettings settings() {
        return settings;
    }

    /** Every object that should exist, keyed by its reference. */
    public Map<ObjectRef, HasMetadata> render(DesiredQuota quota) {
        Map<ObjectRef, HasMetadata> objects = new LinkedHashMap<>(renderCohort(quota));
        quota.tenants().values().forEach(tenant -> objects.putAll(renderClusterQueue(quota.cells(), tenant)));
        quota.queues().values().forEach(tenant -> objects.putAll(renderQueues(tenant)));
        objects.putAll(renderBorrowing(quota));
        return objects;
    }

    /** The WorkloadPriorityClass of borrowed work, wanted while some pool lets over-budget tenants borrow. */
    public Map<ObjectRef, HasMetadata> renderBorrowing(DesiredQuota quota) {
        Map<ObjectRef, HasMetadata> objects = new LinkedHashMap<>();
        if (!quota.borrowCells().isEmpty()) {
            put(objects, Kind.WORKLOAD_PRIORITY_CLASS, borrowedPriorityClass());
        }
        quota.borrowers().values().forEach(b -> objects.putAll(renderBorrower(quota.borrowCells(), b)));
        return objects;
    }

    /**
     * An over-budget tenant's borrow-only ClusterQueue (nominal 0 on every cell over-budget work may borrow, so it
     * holds nothing and runs only on what the cohort has idle) and its LocalQueues.
     */
    public Map<ObjectRef, HasMetadata> renderBorrower(SortedSet<FlavorResource> cells, BorrowQueue borrower) {
        Map<ObjectRef, HasMetadata> objects = new LinkedHashMap<>();
        SortedMap<FlavorResource, Long> zero = new TreeMap<>();
        cells.forEach(cell -> zero.put(cell, 0L));
        put(objects, Kind.CLUSTER_QUEUE, clusterQueue(borrower.clusterQueue(), borrower.tenant(), zero, RUNNING));
        for (String namespace : borrower.namespaces()) {
            put(
                    objects,
                    Kind.LOCAL_QUEUE,
                    localQueue(borrower.clusterQueue(), borrower.tenant(), namespace, borrowLocalQueueName()));
        }
        return objects;
    }

    /** The LocalQueue over-budget work is submitted to: {@code <local-queue-name>-borrowed}. */
    public String borrowLocalQueueName() {
        return settings.localQueueName() + "-borrowed";
    }

    WorkloadPriorityClass borrowedPriorityClass() {
        WorkloadPriorityClass priorityClass = new WorkloadPriorityClass();
        priorityClass.setMetadata(metadata(null, BORROWED_PRIORITY_CLASS, null));
        priorityClass.setValue(BORROWED_PRIORITY);
        priorityClass.setDescription("gpuaas: work of a tenant over its monthly budget, on borrowed capacity only;"
                + " booked tenants preempt it");
        return priorityClass;
    }

    public Map<ObjectRef, HasMetadata> renderCohort(DesiredQuota quota) {
        Map<ObjectRef, HasMetadata> objects = new LinkedHashMap<>();
        put(objects, Kind.COHORT, cohort(quota.cohortNominal()));
        return objects;
    }

    /** One tenant's objects; they depend only on the cells and the tenant, so the planner can reuse them. */
    public Map<ObjectRef, HasMetadata> renderTenant(SortedMap<FlavorResource, Long> cells, TenantQueue tenant) {
        Map<ObjectRef, HasMetadata> objects = renderClusterQueue(cells, tenant);
        objects.putAll(renderQueues(tenant));
        return objects;
    }

    /** A tenant's ClusterQueue, holding its active units. */
    public Map<ObjectRef, HasMetadata> renderClusterQueue(SortedMap<FlavorResource, Long> cells, TenantQueue tenant) {
        Map<ObjectRef, HasMetadata> objects = new LinkedHashMap<>();
        SortedMap<FlavorResource, Long> all = new TreeMap<>();
        // Every tenant queue lists every cell (0 where not booked) so its shape never changes with its bookings.
        cells.keySet().forEach(cell -> all.put(cell, tenant.nominal(cell)));
        put(objects, Kind.CLUSTER_QUEUE, clusterQueue(tenant.tenant(), all, RUNNING));
        return objects;
    }

    /** A tenant's LocalQueues and HardwareProfiles: no quota, only where to submit and how much may be asked. */
    public Map<ObjectRef, HasMetadata> renderQueues(TenantQueue tenant) {
        Map<ObjectRef, HasMetadata> objects = new LinkedHashMap<>();
        for (String namespace : tenant.namespaces()) {
            put(objects, Kind.LOCAL_QUEUE, localQueue(tenant.tenant(), namespace));
            if (settings.hardwareProfiles()) {
                hardwareProfiles(tenant, namespace).forEach(p -> put(objects, Kind.HARDWARE_PROFILE, p));
            }
        }
        return objects;
    }

    /** The shape a ClusterQueue of an ended tenant is drained with: no quota, HoldAndDrain. */
    public ClusterQueue drainingClusterQueue(String tenant, SortedMap<FlavorResource, Long> cells) {
        return drainingClusterQueue(QuotaPlan.clusterQueueName(tenant), tenant, cells);
    }

    /** {@code name}'s draining shape (a tenant's queue, or a borrow-only queue no longer wanted). */
    public ClusterQueue drainingClusterQueue(String name, String tenant, SortedMap<FlavorResource, Long> cells) {
        SortedMap<FlavorResource, Long> zero = new TreeMap<>();
        cells.keySet().forEach(cell -> zero.put(cell, 0L));
        return clusterQueue(name, tenant, zero, HOLD_AND_DRAIN);
    }

    Cohort cohort(SortedMap<FlavorResource, Long> nominal) {
        CohortSpec spec = new CohortSpec();
        spec.setResourceGroups(ResourceGroups.render(nominal, false));
        Cohort cohort = new Cohort();
        cohort.setMetadata(metadata(null, settings.cohortName(), null));
        cohort.setSpec(spec);
        return cohort;
    }

    ClusterQueue clusterQueue(String tenant, SortedMap<FlavorResource, Long> nominal, String stopPolicy) {
        return clusterQueue(QuotaPlan.clusterQueueName(tenant), tenant, nominal, stopPolicy);
    }

    ClusterQueue clusterQueue(String name, String tenant, SortedMap<FlavorResource, Long> nominal, String stopPolicy) {
        ClusterQueueSpec spec = new ClusterQueueSpec();
        spec.setCohortName(settings.cohortName());
        spec.setNamespaceSelector(new LabelSelectorBuilder()
                .addToMatchLabels(Labels.TENANT, tenant)
                .build());
        spec.setPreemption(preemption());
        spec.setQueueingStrategy("BestEffortFIFO");
        spec.setStopPolicy(stopPolicy);
        List<io.gpuaas.kube.kueue.v1beta2.clusterqueuespec.ResourceGroups> groups =
                new ArrayList<>(ResourceGroups.render(nominal, !settings.allowBorrowing()));
        if (settings.nodeResources().covered()) {
            // Kueue refuses a Workload requesting a resource its queue does not cover: GPU pods request cpu/memory.
            groups.add(ResourceGroups.nodeResources(settings.nodeResources(), HOLD_AND_DRAIN.equals(stopPolicy)));
        }
        spec.setResourceGroups(groups);
        ClusterQueue queue = new ClusterQueue();
        queue.setMetadata(metadata(null, name, tenant));
        queue.setSpec(spec);
        return queue;
    }

    /** Owners take their booked units back from borrowers at once; a borrower never preempts to borrow. */
    private static Preemption preemption() {
        BorrowWithinCohort borrow = new BorrowWithinCohort();
        borrow.setPolicy("Never");
        Preemption preemption = new Preemption();
        preemption.setReclaimWithinCohort("Any");
        preemption.setWithinClusterQueue("LowerPriority");
        preemption.setBorrowWithinCohort(borrow);
        return preemption;
    }

    LocalQueue localQueue(String tenant, String namespace) {
        return localQueue(QuotaPlan.clusterQueueName(tenant), tenant, namespace, settings.localQueueName());
    }

    private LocalQueue localQueue(String clusterQueue, String tenant, String namespace, String name) {
        LocalQueueSpec spec = new LocalQueueSpec();
        spec.setClusterQueue(clusterQueue);
        spec.setStopPolicy(RUNNING);
        LocalQueue queue = new LocalQueue();
        queue.setMetadata(metadata(namespace, name, tenant));
        queue.setSpec(spec);
        return queue;
    }

    private List<HardwareProfile> hardwareProfiles(TenantQueue tenant, String namespace) {
        Map<String, List<Identifiers>> byFlavor = new TreeMap<>();
        tenant.bookedCells().forEach((cell, units) -> byFlavor.computeIfAbsent(cell.flavor(), f -> new ArrayList<>())
                .add(identifier(cell, units)));
        List<HardwareProfile> profiles = new ArrayList<>();
        byFlavor.forEach((flavor, identifiers) -> {
            Kueue kueue = new Kueue();
            kueue.setLocalQueueName(settings.localQueueName());
            Scheduling scheduling = new Scheduling();
            scheduling.setType("Queue");
            scheduling.setKueue(kueue);
            HardwareProfileSpec spec = new HardwareProfileSpec();
            spec.setIdentifiers(identifiers);
            spec.setScheduling(scheduling);
            HardwareProfile profile = new HardwareProfile();
            profile.setMetadata(metadata(namespace, "gpuaas-" + flavor, tenant.tenant()));
            profile.getMetadata()
                    .setAnnotations(Map.of(
                            "opendatahub.io/display-name",
                            "Booked " + flavor,
                            "opendatahub.io/description",
                            "GPU capacity booked through gpuaas for " + tenant.tenant()));
            profile.setSpec(spec);
            profiles.add(profile);
        });
        return profiles;
    }

    private static Identifiers identifier(FlavorResource cell, long units) {
        Identifiers id = new Identifiers();
        id.setIdentifier(cell.resource());
        id.setDisplayName(cell.resource());
        id.setResourceType("Accelerator");
        id.setMinCount(new IntOrString(1));
        id.setMaxCount(new IntOrString(Math.toIntExact(units)));
        id.setDefaultCount(new IntOrString(1));
        return id;
    }

    private static io.fabric8.kubernetes.api.model.ObjectMeta metadata(String namespace, String name, String tenant) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(Ownership.MANAGED_BY, Ownership.MANAGED_BY_VALUE);
        if (tenant != null) {
            labels.put(Labels.TENANT, tenant);
        }
        return new ObjectMetaBuilder()
                .withName(name)
                .withNamespace(namespace)
                .withLabels(labels)
                .build();
    }

    private static void put(Map<ObjectRef, HasMetadata> objects, Kind kind, HasMetadata object) {
        objects.put(ObjectRef.of(kind, object), object);
    }
}
