package io.gpuaas.deploy;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** The Secrets a rendered service Deployment's pod reads, and how: environment variables and volumes. */
final class PodWiring {

    private final String service;
    private final Map<String, Object> pod;
    private final Map<String, Object> container;

    private PodWiring(String service, Map<String, Object> pod) {
        this.service = service;
        this.pod = pod;
        this.container = Yaml.list(pod, "containers").getFirst();
    }

    static PodWiring of(Rendering rendering, String service) {
        Map<String, Object> deployment = rendering.ofKind("Deployment").stream()
                .filter(d -> service.equals(Rendering.name(d)))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no Deployment " + service + " in " + rendering.target()));
        return new PodWiring(service, Yaml.map(deployment, "spec", "template", "spec"));
    }

    /** Every Secret any container of the pod reads: env, envFrom, secret and projected volumes. */
    Set<String> secretNames() {
        Set<String> names = new TreeSet<>();
        for (Map<String, Object> c : containers()) {
            Yaml.list(c, "env").forEach(e -> add(names, Yaml.string(e, "valueFrom", "secretKeyRef", "name")));
            Yaml.list(c, "envFrom").forEach(e -> add(names, Yaml.string(e, "secretRef", "name")));
        }
        for (Map<String, Object> volume : Yaml.list(pod, "volumes")) {
            add(names, Yaml.string(volume, "secret", "secretName"));
            Yaml.list(volume, "projected", "sources").forEach(s -> add(names, Yaml.string(s, "secret", "name")));
        }
        return names;
    }

    /** {@code <secret>/<key>} the first container's variable {@code name} is read from, or null. */
    String envFromSecret(String name) {
        return Yaml.list(container, "env").stream()
                .filter(e -> name.equals(e.get("name")))
                .map(e -> Yaml.string(e, "valueFrom", "secretKeyRef", "name") + "/"
                        + Yaml.string(e, "valueFrom", "secretKeyRef", "key"))
                .findFirst()
                .orElse(null);
    }

    /** Where the first container mounts the volume made from Secret {@code secret}. */
    String mountOfSecret(String secret) {
        String volume = Yaml.list(pod, "volumes").stream()
                .filter(v -> secret.equals(Yaml.string(v, "secret", "secretName")))
                .map(v -> String.valueOf(v.get("name")))
                .findFirst()
                .orElseThrow(() -> new AssertionError(service + " mounts no Secret " + secret));
        return Yaml.list(container, "volumeMounts").stream()
                .filter(m -> volume.equals(m.get("name")))
                .map(m -> String.valueOf(m.get("mountPath")))
                .findFirst()
                .orElseThrow(() -> new AssertionError(service + " does not mount volume " + volume));
    }

    private List<Map<String, Object>> containers() {
        List<Map<String, Object>> all = new java.util.ArrayList<>(Yaml.list(pod, "containers"));
        all.addAll(Yaml.list(pod, "initContainers"));
        return all;
    }

    private static void add(Set<String> names, String name) {
        if (name != null) {
            names.add(name);
        }
    }
}
