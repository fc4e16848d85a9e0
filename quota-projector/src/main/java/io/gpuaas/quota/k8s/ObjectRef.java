package io.gpuaas.quota.k8s;

import io.fabric8.kubernetes.api.model.HasMetadata;

/** Identifies one object the projector owns or watches; {@code namespace} is null for cluster-scoped kinds. */
public record ObjectRef(Kind kind, String namespace, String name) implements Comparable<ObjectRef> {

    public static ObjectRef of(Kind kind, HasMetadata object) {
        return new ObjectRef(
                kind,
                kind.namespaced() ? object.getMetadata().getNamespace() : null,
                object.getMetadata().getName());
    }

    @Override
    public int compareTo(ObjectRef o) {
        int c = kind.compareTo(o.kind);
        if (c != 0) {
            return c;
        }
        c = String.valueOf(namespace).compareTo(String.valueOf(o.namespace));
        return c != 0 ? c : name.compareTo(o.name);
    }

    @Override
    public String toString() {
        return kind.kind() + " " + (namespace == null ? "" : namespace + "/") + name;
    }
}
