package io.gpuaas.local.k8s;

import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.gpuaas.events.Json;
import io.gpuaas.testing.k8s.GpuaasCrd;
import io.gpuaas.testing.k8s.KubernetesApi;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * fabric8's CRUD dispatcher plus the legacy discovery documents ({@code /api}, {@code /apis}, {@code /api/v1},
 * {@code /apis/<group>/<version>}). The CRUD mock answers those paths with a list of everything it stores, which
 * kubectl cannot read; with these it can resolve {@code kubectl get workloads} like against a real API server.
 */
final class DiscoveryDispatcher extends KubernetesCrudDispatcher {

    private static final List<String> VERBS = List.of("create", "delete", "get", "list", "patch", "update", "watch");
    private static final List<Map<String, Object>> CORE = List.of(
            resource("pods", "Pod", true, List.of("po")), resource("pods/status", "Pod", true, List.of()),
            resource("nodes", "Node", false, List.of("no")), resource("nodes/status", "Node", false, List.of()),
            resource("namespaces", "Namespace", false, List.of("ns")),
            resource("configmaps", "ConfigMap", true, List.of("cm")), resource("events", "Event", true, List.of("ev")));

    private final Map<String, String> documents = new LinkedHashMap<>();

    DiscoveryDispatcher() {
        documents.put("/api", json(Map.of("kind", "APIVersions", "versions", List.of("v1"),
                "serverAddressByClientCIDRs", List.of())));
        documents.put("/api/v1", json(resourceList("v1", CORE)));
        Map<String, List<Map<String, Object>>> byGroupVersion = new LinkedHashMap<>();
        byGroupVersion.put("apiextensions.k8s.io/v1", List.of(
                resource("customresourcedefinitions", "CustomResourceDefinition", false, List.of("crd", "crds"))));
        // Built-in kinds the services may read or write besides pods: Deployments (KServe raw mode) and Leases.
        byGroupVersion.put("apps/v1", List.of(resource("deployments", "Deployment", true, List.of("deploy")),
                resource("deployments/scale", "Scale", true, List.of()),
                resource("replicasets", "ReplicaSet", true, List.of("rs"))));
        byGroupVersion.put("coordination.k8s.io/v1", List.of(resource("leases", "Lease", true, List.of())));
        for (GpuaasCrd crd : GpuaasCrd.values()) {
            List<Map<String, Object>> resources = byGroupVersion.computeIfAbsent(crd.apiVersion(), gv -> new ArrayList<>());
            List<String> shortNames = KubernetesApi.loadCrd(crd).getSpec().getNames().getShortNames();
            resources.add(resource(crd.plural(), crd.kind(), crd.namespaced(), shortNames == null ? List.of() : shortNames));
            resources.add(resource(crd.plural() + "/status", crd.kind(), crd.namespaced(), List.of()));
        }
        List<Map<String, Object>> groups = new ArrayList<>();
        byGroupVersion.forEach((groupVersion, resources) -> {
            String[] parts = groupVersion.split("/");
            Map<String, String> version = Map.of("groupVersion", groupVersion, "version", parts[1]);
            groups.add(Map.of("name", parts[0], "versions", List.of(version), "preferredVersion", version));
            documents.put("/apis/" + groupVersion, json(resourceList(groupVersion, resources)));
        });
        documents.put("/apis", json(Map.of("kind", "APIGroupList", "apiVersion", "v1", "groups", groups)));
        documents.put("/version", json(Map.of("major", "1", "minor", "32", "gitVersion", "v1.32.0-gpuaas-local",
                "platform", "linux/amd64")));
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        String path = request.getPath() == null ? "" : request.getPath().split("\\?")[0];
        if ("GET".equals(request.getMethod()) && path.startsWith("/openapi/")) {
            // No OpenAPI documents: kubectl then skips client-side schema validation instead of failing on the list.
            return new MockResponse().setResponseCode(404).setHeader("Content-Type", "application/json")
                    .setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\"NotFound\",\"code\":404}");
        }
        if ("GET".equals(request.getMethod())) {
            String trimmed = path.endsWith("/") && path.length() > 1 ? path.substring(0, path.length() - 1) : path;
            String document = documents.get(trimmed);
            if (document != null) {
                return new MockResponse().setResponseCode(200).setHeader("Content-Type", "application/json")
                        .setBody(document);
            }
        }
        return super.dispatch(request);
    }

    private static Map<String, Object> resourceList(String groupVersion, List<Map<String, Object>> resources) {
        return Map.of("kind", "APIResourceList", "apiVersion", "v1", "groupVersion", groupVersion, "resources", resources);
    }

    private static Map<String, Object> resource(String name, String kind, boolean namespaced, List<String> shortNames) {
        Map<String, Object> resource = new LinkedHashMap<>();
        resource.put("name", name);
        resource.put("singularName", name.contains("/") ? "" : kind.toLowerCase(java.util.Locale.ROOT));
        resource.put("namespaced", namespaced);
        resource.put("kind", kind);
        resource.put("verbs", name.contains("/") ? List.of("get", "patch", "update") : VERBS);
        if (!shortNames.isEmpty()) {
            resource.put("shortNames", shortNames);
        }
        return resource;
    }

    private static String json(Object value) {
        try {
            return Json.mapper().writeValueAsString(value);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
