package io.gpuaas.quota.k8s;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.gpuaas.quota.model.DesiredQuota;
import io.gpuaas.quota.model.FlavorResource;
import io.gpuaas.quota.model.QuotaPlan;
import io.gpuaas.quota.model.TenantQueue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Renders {@link DesiredQuota} into Kueue v1beta2 objects (and OpenShift AI HardwareProfiles). Pure: the same
 * input always gives the same objects, so comparing them with the cluster is meaningful.
 */
public final class KueueManifests {

    private final ManifestSettings settings;

    public KueueManifests(ManifestSettings settings) {
        this.settings = settings;
    }

    public ManifestSettings settings() {
        return settings;
    }

    /** Every object that should exist, keyed by its reference. */
    public Map<ObjectRef, GenericKubernetesResource> render(DesiredQuota quota) {
        Map<ObjectRef, GenericKubernetesResource> objects = new LinkedHashMap<>(renderCohort(quota));
        quota.tenants().values().forEach(tenant -> objects.putAll(renderTenant(quota.cells(), tenant)));
        return objects;
    }

    public Map<ObjectRef, GenericKubernetesResource> renderCohort(DesiredQuota quota) {
        Map<ObjectRef, GenericKubernetesResource> objects = new LinkedHashMap<>();
        put(objects, Kind.COHORT, cohort(quota.cohortNominal()));
        return objects;
    }

    /** One tenant's objects; they depend only on the cells and the tenant, so the planner can reuse them. */
    public Map<ObjectRef, GenericKubernetesResource> renderTenant(SortedMap<FlavorResource, Long> cells, TenantQueue tenant) {
        Map<ObjectRef, GenericKubernetesResource> objects = new LinkedHashMap<>();
        SortedMap<FlavorResource, Long> all = new TreeMap<>();
        // Every tenant queue lists every cell (0 where not booked) so its shape never changes with its bookings.
        cells.keySet().forEach(cell -> all.put(cell, tenant.nominal(cell)));
        put(objects, Kind.CLUSTER_QUEUE, clusterQueue(tenant.tenant(), all, "None"));
        for (String namespace : tenant.namespaces()) {
            put(objects, Kind.LOCAL_QUEUE, localQueue(tenant.tenant(), namespace));
            if (settings.hardwareProfiles()) {
                hardwareProfiles(tenant, namespace).forEach(p -> put(objects, Kind.HARDWARE_PROFILE, p));
            }
        }
        return objects;
    }

    /** The shape a ClusterQueue of an ended tenant is drained with: no quota, HoldAndDrain. */
    public GenericKubernetesResource drainingClusterQueue(String tenant, SortedMap<FlavorResource, Long> cells) {
        SortedMap<FlavorResource, Long> zero = new TreeMap<>();
        cells.keySet().forEach(cell -> zero.put(cell, 0L));
        return clusterQueue(tenant, zero, "HoldAndDrain");
    }

    GenericKubernetesResource cohort(SortedMap<FlavorResource, Long> nominal) {
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("resourceGroups", resourceGroups(nominal, false));
        return object(Kind.COHORT, null, settings.cohortName(), null, spec);
    }

    GenericKubernetesResource clusterQueue(String tenant, SortedMap<FlavorResource, Long> nominal, String stopPolicy) {
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("cohortName", settings.cohortName());
        spec.put("namespaceSelector", Map.of("matchLabels", Map.of(Labels.TENANT, tenant)));
        // Owners take their booked units back from borrowers at once; a borrower never preempts to borrow.
        spec.put("preemption", Map.of("reclaimWithinCohort", "Any", "withinClusterQueue", "LowerPriority",
                "borrowWithinCohort", Map.of("policy", "Never")));
        spec.put("queueingStrategy", "BestEffortFIFO");
        spec.put("stopPolicy", stopPolicy);
        spec.put("resourceGroups", resourceGroups(nominal, !settings.allowBorrowing()));
        return object(Kind.CLUSTER_QUEUE, null, QuotaPlan.clusterQueueName(tenant), tenant, spec);
    }

    GenericKubernetesResource localQueue(String tenant, String namespace) {
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("clusterQueue", QuotaPlan.clusterQueueName(tenant));
        spec.put("stopPolicy", "None");
        return object(Kind.LOCAL_QUEUE, namespace, settings.localQueueName(), tenant, spec);
    }

    private List<GenericKubernetesResource> hardwareProfiles(TenantQueue tenant, String namespace) {
        Map<String, List<Map<String, Object>>> byFlavor = new TreeMap<>();
        tenant.bookedCells().forEach((cell, units) -> byFlavor.computeIfAbsent(cell.flavor(), f -> new ArrayList<>())
                .add(identifier(cell, units)));
        List<GenericKubernetesResource> profiles = new ArrayList<>();
        byFlavor.forEach((flavor, identifiers) -> {
            Map<String, Object> spec = new LinkedHashMap<>();
            spec.put("identifiers", identifiers);
            spec.put("scheduling", Map.of("type", "Queue", "kueue", Map.of("localQueueName", settings.localQueueName())));
            GenericKubernetesResource profile = object(Kind.HARDWARE_PROFILE, namespace, "gpuaas-" + flavor,
                    tenant.tenant(), spec);
            profile.getMetadata().setAnnotations(Map.of("opendatahub.io/display-name", "Booked " + flavor,
                    "opendatahub.io/description", "GPU capacity booked through gpuaas for " + tenant.tenant()));
            profiles.add(profile);
        });
        return profiles;
    }

    private static Map<String, Object> identifier(FlavorResource cell, long units) {
        Map<String, Object> id = new LinkedHashMap<>();
        id.put("identifier", cell.resource());
        id.put("displayName", cell.resource());
        id.put("resourceType", "Accelerator");
        id.put("minCount", 1);
        id.put("maxCount", units);
        id.put("defaultCount", 1);
        return id;
    }

    static List<Map<String, Object>> resourceGroups(SortedMap<FlavorResource, Long> nominal, boolean noBorrowing) {
        return ResourceGroups.render(nominal, noBorrowing);
    }

    private static GenericKubernetesResource object(Kind kind, String namespace, String name, String tenant,
                                                    Map<String, Object> spec) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(Labels.MANAGED_BY, Labels.MANAGED_BY_VALUE);
        if (tenant != null) {
            labels.put(Labels.TENANT, tenant);
        }
        GenericKubernetesResource object = new GenericKubernetesResource();
        object.setApiVersion(kind.apiVersion());
        object.setKind(kind.kind());
        object.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).withLabels(labels).build());
        object.setAdditionalProperty("spec", spec);
        return object;
    }

    private static void put(Map<ObjectRef, GenericKubernetesResource> objects, Kind kind, GenericKubernetesResource o) {
        objects.put(ObjectRef.of(kind, o), o);
    }
}
