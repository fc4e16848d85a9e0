package io.gpuaas.quota.mig;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.gpuaas.events.Labels;
import io.gpuaas.quota.k8s.Ownership;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The API calls of the layout applier: read a node, list the pods bound to it, write the mig-parted ConfigMap and the
 * node's label and annotation. Writes are full updates of a copy with its {@code resourceVersion}; a 409 re-reads
 * and decides again (4 attempts), as the quota writer does.
 */
public final class NodeWrites {

    /** Label the MIG manager applies: the mig-parted config name. */
    static final String CONFIG_LABEL = "nvidia.com/mig.config";
    /** Label the MIG manager reports on: pending, rebooting, success, failed. */
    static final String STATE_LABEL = "nvidia.com/mig.config.state";

    private static final int ATTEMPTS = 4;

    private final KubernetesClient client;
    private final String namespace;
    private final String name;

    public NodeWrites(KubernetesClient client, String namespace, String name) {
        this.client = client;
        this.namespace = namespace;
        this.name = name;
    }

    Optional<Node> node(String node) {
        return Optional.ofNullable(client.nodes().withName(node).get());
    }

    /**
     * The extended GPU resources requested (or, as Kubernetes allows for extended resources, only limited) by pods
     * bound to {@code node} that have not terminated.
     */
    Set<String> resourcesInUse(String node) {
        Set<String> inUse = new TreeSet<>();
        for (Pod pod : client.pods()
                .inAnyNamespace()
                .withField("spec.nodeName", node)
                .list()
                .getItems()) {
            String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
            // The field selector is the API server's; checked again here in case a client or proxy ignores it.
            if (!node.equals(pod.getSpec().getNodeName()) || "Succeeded".equals(phase) || "Failed".equals(phase)) {
                continue;
            }
            pod.getSpec().getContainers().forEach(c -> {
                if (c.getResources() != null) {
                    addGpu(inUse, c.getResources().getRequests());
                    addGpu(inUse, c.getResources().getLimits());
                }
            });
        }
        return inUse;
    }

    private static void addGpu(Set<String> into, Map<String, Quantity> amounts) {
        if (amounts != null) {
            amounts.keySet().stream().filter(r -> r.startsWith("nvidia.com/")).forEach(into::add);
        }
    }

    /** Writes {@code config.yaml} when it differs; creates the ConfigMap when missing. */
    boolean writeConfig(String yaml) {
        for (int attempt = 1; ; attempt++) {
            ConfigMap existing =
                    client.configMaps().inNamespace(namespace).withName(name).get();
            try {
                if (existing == null) {
                    client.configMaps()
                            .inNamespace(namespace)
                            .resource(new ConfigMapBuilder()
                                    .withNewMetadata()
                                    .withNamespace(namespace)
                                    .withName(name)
                                    .addToLabels(Ownership.MANAGED_BY, Ownership.MANAGED_BY_VALUE)
                                    .endMetadata()
                                    .addToData(MigLayoutApplier.CONFIG_KEY, yaml)
                                    .build())
                            .create();
                    return true;
                }
                Map<String, String> data = existing.getData() == null ? Map.of() : existing.getData();
                if (yaml.equals(data.get(MigLayoutApplier.CONFIG_KEY))) {
                    return false;
                }
                ConfigMap copy = new ConfigMapBuilder(existing).build();
                Map<String, String> next = new HashMap<>(data);
                next.put(MigLayoutApplier.CONFIG_KEY, yaml);
                copy.setData(next);
                client.configMaps().inNamespace(namespace).resource(copy).update();
                return true;
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409 || attempt >= ATTEMPTS) {
                    throw e;
                }
            }
        }
    }

    /** Sets the config label and the layout annotation of {@code node}; false when it already had both. */
    boolean writeNode(String node, String config, String annotation) {
        for (int attempt = 1; ; attempt++) {
            Node existing = client.nodes().withName(node).get();
            if (existing == null) {
                return false;
            }
            Map<String, String> labels = existing.getMetadata().getLabels() == null
                    ? new HashMap<>()
                    : new HashMap<>(existing.getMetadata().getLabels());
            Map<String, String> annotations = existing.getMetadata().getAnnotations() == null
                    ? new HashMap<>()
                    : new HashMap<>(existing.getMetadata().getAnnotations());
            if (Objects.equals(labels.get(CONFIG_LABEL), config)
                    && Objects.equals(annotations.get(Labels.MIG_LAYOUT), annotation)) {
                return false;
            }
            labels.put(CONFIG_LABEL, config);
            annotations.put(Labels.MIG_LAYOUT, annotation);
            Node copy = new io.fabric8.kubernetes.api.model.NodeBuilder(existing).build();
            copy.getMetadata().setLabels(labels);
            copy.getMetadata().setAnnotations(annotations);
            try {
                client.nodes().resource(copy).update();
                return true;
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409 || attempt >= ATTEMPTS) {
                    throw e;
                }
            }
        }
    }
}
