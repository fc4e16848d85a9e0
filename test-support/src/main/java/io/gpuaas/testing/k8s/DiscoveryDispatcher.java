package io.gpuaas.testing.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The CRUD dispatcher plus the discovery documents kubectl reads before anything else
 * ({@code /version}, {@code /api}, {@code /apis}, {@code /api/v1}, {@code /apis/apps/v1}). The
 * stock CRUD dispatcher answers those paths with a list of every stored object, so kubectl
 * found no resource types. Per-group resource lists for CRDs ({@code /apis/<group>/<version>})
 * are still served by the stock dispatcher from the registered CRDs.
 */
final class DiscoveryDispatcher extends KubernetesCrudDispatcher {

    private static final String CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
    private static final List<Map<String, Object>> CORE_V1 = List.of(
            resource("namespaces", "Namespace", false, "ns"),
            resource("nodes", "Node", false, "no"),
            resource("pods", "Pod", true, "po"),
            resource("services", "Service", true, "svc"),
            resource("configmaps", "ConfigMap", true, "cm"),
            resource("secrets", "Secret", true),
            resource("events", "Event", true, "ev"));
    private static final List<Map<String, Object>> APPS_V1 = List.of(
            resource("deployments", "Deployment", true, "deploy"),
            resource("statefulsets", "StatefulSet", true, "sts"),
            resource("replicasets", "ReplicaSet", true, "rs"));
    private static final List<Map<String, Object>> APIEXTENSIONS_V1 =
            List.of(resource("customresourcedefinitions", "CustomResourceDefinition", false, "crd", "crds"));

    /** A response held back: requests of {@code method} whose path contains {@code pathPart}. */
    private record Delay(String method, String pathPart, Duration delay) {}

    private final ObjectMapper mapper = new ObjectMapper();
    private final List<Delay> delays = new CopyOnWriteArrayList<>();
    private final ApiServerFaults faults;

    DiscoveryDispatcher(ApiServerFaults faults) {
        this.faults = faults;
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        MockResponse refused = faults.answer(request);
        if (refused != null) {
            return refused;
        }
        if ("GET".equalsIgnoreCase(request.getMethod())) {
            Optional<Object> document = discovery(pathOf(request));
            if (document.isPresent()) {
                return json(document.get());
            }
        }
        return delayed(request, super.dispatch(request));
    }

    /** See {@link KubernetesApi#delayResponses}. */
    void delay(String method, String pathPart, Duration delay) {
        delays.add(new Delay(method, pathPart, delay));
    }

    void clearDelays() {
        delays.clear();
    }

    /**
     * The CRUD store has already applied the request; only its answer waits, on a timer of the server (the mock
     * serves every connection from a few event-loop threads, which must never sleep).
     */
    private MockResponse delayed(RecordedRequest request, MockResponse response) {
        for (Delay d : delays) {
            if (d.method().equalsIgnoreCase(request.getMethod())
                    && request.getPath().contains(d.pathPart())) {
                return response.setBodyDelay(d.delay());
            }
        }
        return response;
    }

    private Optional<Object> discovery(String path) {
        return Optional.ofNullable(
                switch (path) {
                    case "/version" ->
                        Map.of(
                                "major",
                                "1",
                                "minor",
                                "33",
                                "gitVersion",
                                "v1.33.0-gpuaas-mock",
                                "platform",
                                "linux/amd64");
                    case "/api" ->
                        Map.of(
                                "kind",
                                "APIVersions",
                                "versions",
                                List.of("v1"),
                                "serverAddressByClientCIDRs",
                                List.of());
                    case "/apis" -> groupList();
                    case "/api/v1" -> resourceList("v1", CORE_V1);
                    case "/apis/apps/v1" -> resourceList("apps/v1", APPS_V1);
                    case "/apis/apiextensions.k8s.io/v1" -> resourceList("apiextensions.k8s.io/v1", APIEXTENSIONS_V1);
                    default -> crdResourceList(path);
                });
    }

    /** {@code /apis/<group>/<version>} for CRD groups, with short names and verbs kubectl needs. */
    private Map<String, Object> crdResourceList(String path) {
        String[] parts = path.split("/");
        if (parts.length != 4 || !"apis".equals(parts[1])) {
            return null;
        }
        List<Map<String, Object>> resources = new ArrayList<>();
        for (JsonNode crd : storedCrds()) {
            JsonNode spec = crd.path("spec");
            if (!spec.path("group").asText().equals(parts[2])) {
                continue;
            }
            for (JsonNode version : spec.path("versions")) {
                if (version.path("name").asText().equals(parts[3])) {
                    resources.addAll(crdResources(spec, version));
                }
            }
        }
        return resources.isEmpty() ? null : resourceList(parts[2] + "/" + parts[3], resources);
    }

    private List<Map<String, Object>> crdResources(JsonNode spec, JsonNode version) {
        JsonNode names = spec.path("names");
        boolean namespaced = "Namespaced".equals(spec.path("scope").asText());
        Map<String, Object> main =
                resource(names.path("plural").asText(), names.path("kind").asText(), namespaced);
        List<String> shortNames = new ArrayList<>();
        names.path("shortNames").forEach(n -> shortNames.add(n.asText()));
        main.put("shortNames", shortNames);
        List<Map<String, Object>> out = new ArrayList<>(List.of(main));
        if (version.path("subresources").has("status")) {
            Map<String, Object> status = resource(
                    names.path("plural").asText() + "/status",
                    names.path("kind").asText(),
                    namespaced);
            status.put("verbs", List.of("get", "patch", "update"));
            out.add(status);
        }
        return out;
    }

    /** apps, apiextensions and one group per registered CRD group, with its served versions. */
    private Map<String, Object> groupList() {
        Map<String, List<String>> groups = new TreeMap<>();
        groups.put("apps", new ArrayList<>(List.of("v1")));
        groups.put("apiextensions.k8s.io", new ArrayList<>(List.of("v1")));
        for (JsonNode crd : storedCrds()) {
            String group = crd.path("spec").path("group").asText();
            for (JsonNode version : crd.path("spec").path("versions")) {
                List<String> versions = groups.computeIfAbsent(group, g -> new ArrayList<>());
                String name = version.path("name").asText();
                if (version.path("served").asBoolean(true) && !versions.contains(name)) {
                    versions.add(name);
                }
            }
        }
        List<Map<String, Object>> items = new ArrayList<>();
        groups.forEach((group, versions) -> {
            List<Map<String, String>> gvs = versions.stream()
                    .map(v -> Map.of("groupVersion", group + "/" + v, "version", v))
                    .toList();
            items.add(Map.of("name", group, "versions", gvs, "preferredVersion", gvs.get(0)));
        });
        return Map.of("kind", "APIGroupList", "apiVersion", "v1", "groups", items);
    }

    private List<JsonNode> storedCrds() {
        MockResponse list = super.handleGet(CRDS);
        try {
            JsonNode items = mapper.readTree(list.getBody().readUtf8()).path("items");
            List<JsonNode> out = new ArrayList<>();
            items.forEach(out::add);
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read stored CRDs", e);
        }
    }

    private MockResponse json(Object document) {
        try {
            return new MockResponse()
                    .setResponseCode(200)
                    .setHeader("Content-Type", "application/json")
                    .setBody(mapper.writeValueAsString(document));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Map<String, Object> resourceList(String groupVersion, List<Map<String, Object>> resources) {
        return Map.of(
                "kind", "APIResourceList", "apiVersion", "v1", "groupVersion", groupVersion, "resources", resources);
    }

    private static Map<String, Object> resource(String plural, String kind, boolean namespaced, String... shortNames) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("name", plural);
        r.put("singularName", kind.toLowerCase(java.util.Locale.ROOT));
        r.put("kind", kind);
        r.put("namespaced", namespaced);
        r.put("verbs", List.of("create", "delete", "get", "list", "patch", "update", "watch"));
        r.put("shortNames", List.of(shortNames));
        return r;
    }

    private static String pathOf(RecordedRequest request) {
        String path = request.getPath();
        int query = path.indexOf('?');
        return query < 0 ? path : path.substring(0, query);
    }
}
