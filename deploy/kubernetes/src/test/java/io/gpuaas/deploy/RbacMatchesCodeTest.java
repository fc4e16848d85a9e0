package io.gpuaas.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Least privilege, checked both ways. For each service, {@code k8s-access/<service>.yaml} (test resources) maps each
 * Kubernetes API call of its sources (found by {@link KubernetesCalls}) to the resource it addresses. Then:
 * <ol>
 *   <li>every API call in the sources is claimed by an access entry (a new call without RBAC fails here);</li>
 *   <li>every access entry still matches a call (a rule whose call was removed fails here);</li>
 *   <li>the RBAC rendered for the service's ServiceAccount grants exactly the verbs those calls need, per resource
 *       and scope: nothing missing, nothing extra;</li>
 *   <li>no Role or ClusterRole anywhere uses a wildcard.</li>
 * </ol>
 */
class RbacMatchesCodeTest {

    static final List<String> TARGETS = Rendering.TARGETS;
    static final List<String> SERVICES =
            List.of("booking-service", "quota-projector", "idle-reclaimer", "metrics-gateway");
    private static final String NAMESPACE = "gpuaas";

    /** One permission: cluster-wide (ClusterRole) or in the service's namespace (Role). */
    record Permission(String scope, String apiGroup, String resource, String verb) implements Comparable<Permission> {
        @Override
        public int compareTo(Permission o) {
            return toString().compareTo(o.toString());
        }
    }

    record Access(String scope, String apiGroup, String resource, List<String> calls) {}

    @ParameterizedTest
    @FieldSource("SERVICES")
    void shouldDeclareEveryApiCallOfTheServiceAndNoCallThatIsGone(String service) throws IOException {
        List<KubernetesCalls.Call> calls = KubernetesCalls.of(service);
        List<Access> access = access(service);

        List<String> unclaimed = calls.stream()
                .filter(call -> access.stream().noneMatch(a -> claims(a, call)))
                .map(KubernetesCalls.Call::toString)
                .toList();
        assertThat(unclaimed)
                .as("API calls of %s missing from k8s-access/%s.yaml", service, service)
                .isEmpty();

        List<String> stale = new ArrayList<>();
        for (Access a : access) {
            for (String regex : a.calls()) {
                if (calls.stream()
                        .noneMatch(c -> Pattern.compile(regex).matcher(c.text()).find())) {
                    stale.add(a.resource() + ": " + regex);
                }
            }
        }
        assertThat(stale)
                .as("access entries of %s that match no API call any more", service)
                .isEmpty();
    }

    @org.junit.jupiter.api.Test
    void shouldFindNoApiCallInTheModulesEveryServiceSharesButTheLeaseOfTheServicesThatBuildIt() {
        // Code there runs inside every service, so a call would need RBAC in all four; none exists but one.
        // service-kit does build the client the Kubernetes-facing services share (k8s.KubernetesClientFactory):
        // building reads the kubeconfig or service account and calls nothing; every call made with that client is
        // in a service's own sources, checked above. Its file is scanned like any other, so a call added there fails.
        // The one exception is k8s.LeaseLeadership: it reads, creates and updates a Lease for the service that builds
        // it, and that service's "new LeaseLeadership(" is the call its k8s-access file claims (checked above).
        assertThat(JavaSources.of("service-kit"))
                .as("service-kit sources scanned")
                .anySatisfy(f -> assertThat(f.code()).contains("new KubernetesClientBuilder()"));
        assertThat(KubernetesCalls.of("service-kit"))
                .as("API calls in service-kit")
                .isNotEmpty()
                .allSatisfy(call -> {
                    assertThat(call.file()).isEqualTo("LeaseLeadership.java");
                    assertThat(call.verbs()).isSubsetOf("get", "create", "update");
                });
        assertThat(KubernetesCalls.of("events")).as("API calls in events").isEmpty();
    }

    @ParameterizedTest
    @FieldSource("TARGETS")
    void shouldGrantEachServiceExactlyThePermissionsItsCodeUsesWhenRendered(String target) throws IOException {
        Rendering rendering = Rendering.of(target);
        List<String> problems = new ArrayList<>();
        for (String service : SERVICES) {
            Set<Permission> granted = granted(rendering, service);
            Set<Permission> needed = needed(rendering, service);
            needed.stream().filter(p -> !granted.contains(p)).forEach(p -> problems.add(service + " lacks " + p));
            granted.stream().filter(p -> !needed.contains(p)).forEach(p -> problems.add(service + " needs no " + p));
        }
        assertThat(problems).as("RBAC in %s vs the calls of the code", target).isEmpty();
    }

    @ParameterizedTest
    @FieldSource("TARGETS")
    void shouldUseNoWildcardInAnyRoleWhenRendered(String target) {
        Rendering rendering = Rendering.of(target);
        List<Map<String, Object>> roles = new ArrayList<>(rendering.ofKind("Role"));
        roles.addAll(rendering.ofKind("ClusterRole"));
        for (Map<String, Object> role : roles) {
            for (Map<String, Object> rule : Yaml.list(role, "rules")) {
                for (String field : List.of("apiGroups", "resources", "verbs", "resourceNames", "nonResourceURLs")) {
                    assertThat(String.valueOf(rule.get(field)))
                            .as("%s of %s", field, Rendering.name(role))
                            .doesNotContain("*");
                }
            }
        }
    }

    @ParameterizedTest
    @FieldSource("TARGETS")
    void shouldGiveBookingServiceNoApiTokenWhenRendered(String target) {
        Rendering rendering = Rendering.of(target);
        Map<String, Object> deployment = rendering.ofKind("Deployment").stream()
                .filter(d -> "booking-service".equals(Rendering.name(d)))
                .findFirst()
                .orElseThrow();
        assertThat(Yaml.at(deployment, "spec", "template", "spec", "automountServiceAccountToken"))
                .isEqualTo(false);
        for (String service : SERVICES) {
            Map<String, Object> d = rendering.ofKind("Deployment").stream()
                    .filter(x -> service.equals(Rendering.name(x)))
                    .findFirst()
                    .orElseThrow();
            assertThat(Yaml.string(d, "spec", "template", "spec", "serviceAccountName"))
                    .isEqualTo(service);
        }
    }

    static Set<Permission> needed(Rendering rendering, String service) throws IOException {
        List<KubernetesCalls.Call> calls = KubernetesCalls.of(service);
        Set<Permission> needed = new TreeSet<>();
        for (Access a : access(service)) {
            for (KubernetesCalls.Call call : calls) {
                if (claims(a, call)) {
                    String resource = call.statusSubresource() ? a.resource() + "/status" : a.resource();
                    String scope = scope(rendering, service, a.scope());
                    call.verbs().forEach(v -> needed.add(new Permission(scope, a.apiGroup(), resource, v)));
                }
            }
        }
        return needed;
    }

    /**
     * {@code cluster}, {@code namespace} (the service's own) or {@code config:<property>}: a Role in the namespace
     * that property names in the rendered configuration, cluster-wide when it is empty.
     */
    private static String scope(Rendering rendering, String service, String declared) {
        if (!declared.startsWith("config:")) {
            return declared;
        }
        String ns = ServiceConfig.of(rendering, service)
                .get(declared.substring("config:".length()))
                .orElse("");
        return ns.isBlank() ? "cluster" : NAMESPACE.equals(ns) ? "namespace" : "namespace:" + ns;
    }

    static Set<Permission> granted(Rendering rendering, String service) {
        Set<Permission> granted = new TreeSet<>();
        for (Map<String, Object> binding : rendering.ofKind("ClusterRoleBinding")) {
            if (boundTo(binding, service)) {
                rules(rendering, "ClusterRole", null, Yaml.string(binding, "roleRef", "name"))
                        .forEach(rule -> expand("cluster", rule, granted));
            }
        }
        for (Map<String, Object> binding : rendering.ofKind("RoleBinding")) {
            if (boundTo(binding, service)) {
                String kind = Yaml.string(binding, "roleRef", "kind");
                String ns = Yaml.string(binding, "metadata", "namespace");
                String scope = NAMESPACE.equals(ns) ? "namespace" : "namespace:" + ns;
                rules(rendering, kind, "Role".equals(kind) ? ns : null, Yaml.string(binding, "roleRef", "name"))
                        .forEach(rule -> expand(scope, rule, granted));
            }
        }
        return granted;
    }

    private static boolean boundTo(Map<String, Object> binding, String service) {
        return Yaml.list(binding, "subjects").stream()
                .anyMatch(s -> "ServiceAccount".equals(s.get("kind"))
                        && service.equals(s.get("name"))
                        && NAMESPACE.equals(s.get("namespace")));
    }

    private static List<Map<String, Object>> rules(Rendering rendering, String kind, String namespace, String name) {
        return rendering.ofKind(kind).stream()
                .filter(r -> name.equals(Rendering.name(r)))
                .filter(r -> namespace == null || namespace.equals(Yaml.string(r, "metadata", "namespace")))
                .flatMap(r -> Yaml.list(r, "rules").stream())
                .toList();
    }

    @SuppressWarnings("unchecked")
    private static void expand(String scope, Map<String, Object> rule, Set<Permission> into) {
        for (String group : (List<String>) rule.getOrDefault("apiGroups", List.of())) {
            for (String resource : (List<String>) rule.getOrDefault("resources", List.of())) {
                for (String verb : (List<String>) rule.getOrDefault("verbs", List.of())) {
                    into.add(new Permission(scope, group, resource, verb));
                }
            }
        }
    }

    private static boolean claims(Access access, KubernetesCalls.Call call) {
        return access.calls().stream()
                .anyMatch(regex -> Pattern.compile(regex).matcher(call.text()).find());
    }

    @SuppressWarnings("unchecked")
    static List<Access> access(String service) throws IOException {
        try (InputStream in = RbacMatchesCodeTest.class.getResourceAsStream("/k8s-access/" + service + ".yaml")) {
            assertThat(in).as("k8s-access/%s.yaml", service).isNotNull();
            Map<String, Object> doc = new ObjectMapper(new YAMLFactory()).readValue(in, Map.class);
            List<Access> access = new ArrayList<>();
            for (Map<String, Object> a : (List<Map<String, Object>>) doc.getOrDefault("access", List.of())) {
                access.add(new Access(
                        (String) a.get("scope"), (String) a.get("apiGroup"), (String) a.get("resource"), (List<String>)
                                a.get("calls")));
            }
            return access;
        }
    }
}
