package io.gpuaas.local.model;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.List;
import java.util.Map;

/**
 * RFC 6902 patches that set one field wholesale. The stand-ins use these rather than merge patches because fabric8's
 * CRUD mock merges JSON merge patches wrongly: it appends to arrays instead of replacing them and stores nulls
 * instead of deleting the field.
 */
public final class JsonPatch {

    public static final PatchContext CONTEXT = PatchContext.of(PatchType.JSON);

    private JsonPatch() {}

    /** A patch that sets {@code path} (e.g. {@code /status}) to {@code value}, creating or replacing it. */
    public static String set(KubernetesClient client, String path, Object value) {
        return client.getKubernetesSerialization().asJson(List.of(Map.of("op", "add", "path", path, "value", value)));
    }
}
