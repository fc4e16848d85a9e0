package io.gpuaas.quota.k8s;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Map;

/** Whether an object belongs to the projector: only those carry {@code app.kubernetes.io/managed-by=gpuaas}. */
public final class Ownership {

    /** The label that marks an object as the projector's. */
    public static final String MANAGED_BY = "app.kubernetes.io/managed-by";

    public static final String MANAGED_BY_VALUE = "gpuaas";

    private Ownership() {}

    public static boolean owned(HasMetadata object) {
        return object != null && MANAGED_BY_VALUE.equals(label(object, MANAGED_BY));
    }

    public static String label(HasMetadata object, String key) {
        Map<String, String> labels =
                object.getMetadata() == null ? null : object.getMetadata().getLabels();
        return labels == null ? null : labels.get(key);
    }

    public static String annotation(HasMetadata object, String key) {
        Map<String, String> annotations =
                object.getMetadata() == null ? null : object.getMetadata().getAnnotations();
        return annotations == null ? null : annotations.get(key);
    }
}
