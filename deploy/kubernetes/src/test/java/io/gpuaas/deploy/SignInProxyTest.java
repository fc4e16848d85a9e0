package io.gpuaas.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The OpenShift overlay's sign-in (docs/sign-in.md): people reach booking-service through the cluster's oauth-proxy,
 * which forwards their token and nothing the service would take as a credential; the service checks the token
 * itself; the proxy alone holds a service-account token; no RBAC is added for any of it.
 */
class SignInProxyTest {

    private static final Rendering OPENSHIFT = Rendering.of("overlays/openshift");

    @Test
    void shouldPutTheOauthProxyBesideBookingServiceForwardingTheTokenAndNoBasicAuth() {
        Map<String, Object> proxy = container(OPENSHIFT, "oauth-proxy");
        List<Object> args = List.copyOf((List<?>) proxy.get("args"));

        assertThat(args)
                .contains(
                        "--provider=openshift",
                        "--upstream=http://127.0.0.1:8080",
                        "--openshift-service-account=booking-service",
                        "--scope=user:info",
                        "--pass-access-token=true",
                        "--pass-basic-auth=false",
                        "--pass-user-headers=false",
                        "--https-address=:8443");
        assertThat(args).noneMatch(a -> a.toString().startsWith("--skip-auth-regex"));
        assertThat(Yaml.list(proxy, "ports")).anySatisfy(p -> {
            assertThat(p).containsEntry("name", "proxy").containsEntry("containerPort", 8443);
        });
        assertThat(Yaml.string(proxy, "readinessProbe", "httpGet", "scheme")).isEqualTo("HTTPS");
    }

    @Test
    void shouldRouteBrowsersToTheProxyWithReencryptAndJwtClientsToTheService() {
        Map<String, Object> people = named(OPENSHIFT.ofKind("Route"), "booking-service");
        Map<String, Object> api = named(OPENSHIFT.ofKind("Route"), "booking-service-api");
        Map<String, Object> service = named(OPENSHIFT.ofKind("Service"), "booking-service");

        assertThat(Yaml.string(people, "spec", "port", "targetPort")).isEqualTo("proxy");
        assertThat(Yaml.string(people, "spec", "tls", "termination")).isEqualTo("reencrypt");
        assertThat(Yaml.string(api, "spec", "port", "targetPort")).isEqualTo("http");
        assertThat(Yaml.list(service, "spec", "ports"))
                .anySatisfy(p -> assertThat(p).containsEntry("name", "proxy").containsEntry("targetPort", "proxy"));
        String tlsSecret =
                Yaml.string(service, "metadata", "annotations", "service.beta.openshift.io/serving-cert-secret-name");
        assertThat(volumeSources(OPENSHIFT, "oauth-proxy")).contains("secret:" + tlsSecret);
        String redirect = Yaml.string(
                named(OPENSHIFT.ofKind("ServiceAccount"), "booking-service"),
                "metadata",
                "annotations",
                "serviceaccounts.openshift.io/oauth-redirectreference.primary");
        assertThat(redirect).contains("\"kind\":\"Route\"", "\"name\":\"booking-service\"");
    }

    @Test
    void shouldGiveTheServiceAccountTokenToTheProxyOnlyAndAddNoRbac() {
        Map<String, Object> tokenSecret = named(OPENSHIFT.ofKind("Secret"), "booking-service-oauth-client");
        assertThat(Yaml.string(tokenSecret, "type")).isEqualTo("kubernetes.io/service-account-token");

        assertThat(volumeSources(OPENSHIFT, "oauth-proxy")).contains("secret:booking-service-oauth-client");
        assertThat(volumeSources(OPENSHIFT, "booking-service"))
                .doesNotContain("secret:booking-service-oauth-client")
                .noneMatch(s -> s.startsWith("projected"));
        for (String kind : List.of("RoleBinding", "ClusterRoleBinding")) {
            for (Map<String, Object> binding : OPENSHIFT.ofKind(kind)) {
                assertThat(Yaml.list(binding, "subjects"))
                        .as("%s %s", kind, Rendering.name(binding))
                        .noneMatch(s -> "booking-service".equals(s.get("name")));
            }
        }
    }

    /** booking-service behind the proxy; the two services it forwards a signed-in user's calls to. */
    @ParameterizedTest
    @ValueSource(strings = {"booking-service", "idle-reclaimer", "metrics-gateway"})
    void shouldTurnForwardedIdentityOnWithTheMountedGroupMappingAndApiServerCa(String service) {
        Map<String, String> env = ServiceConfig.of(OPENSHIFT, service).env();

        assertThat(env).containsEntry("GPUAAS_SECURITY_FORWARDED_IDENTITY_ENABLED", "true");
        assertThat(mountPathOf(OPENSHIFT, service, "configMap:gpuaas-sign-in-groups") + "/groups.yaml")
                .isEqualTo(env.get("GPUAAS_SECURITY_FORWARDED_IDENTITY_MAPPING_PATH"));
        assertThat(mountPathOf(OPENSHIFT, service, "configMap:kube-root-ca.crt") + "/ca.crt")
                .isEqualTo(env.get("GPUAAS_SECURITY_FORWARDED_IDENTITY_CA_PATH"));
    }

    @Test
    void shouldShipAGroupMappingWithEachGroupOnceGivingATenantOrRoles() throws Exception {
        String file = ServiceConfig.file(OPENSHIFT, "gpuaas-sign-in-groups", "groups.yaml");
        List<Map<String, Object>> entries =
                Yaml.list(new ObjectMapper(new YAMLFactory()).readValue(file, Map.class), "groups");

        assertThat(entries).isNotEmpty();
        Set<Object> groups = new HashSet<>();
        for (Map<String, Object> entry : entries) {
            assertThat(groups.add(entry.get("group")))
                    .as("group %s once", entry.get("group"))
                    .isTrue();
            assertThat(entry.containsKey("tenant") || entry.containsKey("roles"))
                    .as(entry.toString())
                    .isTrue();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"base", "overlays/dev"})
    void shouldLeaveForwardedIdentityOffWhereThereIsNoProxy(String target) {
        Rendering rendering = Rendering.of(target);
        for (String service : RestrictedPodsTest.SERVICES) {
            assertThat(ServiceConfig.of(rendering, service).env())
                    .as(service)
                    .doesNotContainKey("GPUAAS_SECURITY_FORWARDED_IDENTITY_ENABLED");
        }
        assertThat(containers(rendering, "booking-service"))
                .extracting(c -> c.get("name"))
                .containsExactly("booking-service");
    }

    private static List<Map<String, Object>> containers(Rendering rendering, String deployment) {
        return Yaml.list(named(rendering.ofKind("Deployment"), deployment), "spec", "template", "spec", "containers");
    }

    private static Map<String, Object> container(Rendering rendering, String name) {
        return named(containers(rendering, "booking-service"), name);
    }

    /** "secret:<name>" / "configMap:<name>" / "projected" for each volume the container mounts. */
    private static List<String> volumeSources(Rendering rendering, String containerName) {
        Map<String, Object> pod =
                Yaml.map(named(rendering.ofKind("Deployment"), "booking-service"), "spec", "template", "spec");
        List<Object> mounted = Yaml.list(container(rendering, containerName), "volumeMounts").stream()
                .map(m -> m.get("name"))
                .toList();
        return Yaml.list(pod, "volumes").stream()
                .filter(v -> mounted.contains(v.get("name")))
                .map(SignInProxyTest::source)
                .toList();
    }

    /** Where the first container of {@code deployment} mounts the volume made from {@code source}. */
    private static String mountPathOf(Rendering rendering, String deployment, String source) {
        Map<String, Object> pod =
                Yaml.map(named(rendering.ofKind("Deployment"), deployment), "spec", "template", "spec");
        Object volume = Yaml.list(pod, "volumes").stream()
                .filter(v -> source.equals(source(v)))
                .map(v -> v.get("name"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no volume " + source));
        return Yaml.list(containers(rendering, deployment).getFirst(), "volumeMounts").stream()
                .filter(m -> volume.equals(m.get("name")))
                .map(m -> String.valueOf(m.get("mountPath")))
                .findFirst()
                .orElseThrow(() -> new AssertionError(deployment + " does not mount " + source));
    }

    private static String source(Map<String, Object> volume) {
        if (volume.containsKey("secret")) {
            return "secret:" + Yaml.string(volume, "secret", "secretName");
        }
        if (volume.containsKey("configMap")) {
            // a generated ConfigMap's name carries kustomize's content hash
            return "configMap:" + Yaml.string(volume, "configMap", "name").replaceFirst("-[a-z0-9]{10}$", "");
        }
        return volume.containsKey("projected") ? "projected" : "other";
    }

    private static Map<String, Object> named(List<Map<String, Object>> objects, String name) {
        return objects.stream()
                .filter(o -> name.equals(o.get("name")) || name.equals(Rendering.name(o)))
                .findFirst()
                .orElseThrow(() -> new AssertionError("nothing named " + name));
    }
}
