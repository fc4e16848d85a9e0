package io.gpuaas.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.KafkaAccess;
import io.gpuaas.events.KafkaPrincipal;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.common.acl.AclBinding;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Each service reaches Kafka as its own user with exactly the ACLs of {@link KafkaAccess}, over the one listener,
 * which admits nobody anonymously; the SRE user only reads.
 */
class KafkaUsersMatchAccessTableTest {

    static final List<String> TARGETS = Rendering.TARGETS;
    static final List<String> SERVICES = RbacMatchesCodeTest.SERVICES;

    /** Where a Kafka Streams service reads its application id (its {@code *Settings} record). */
    private static final Map<KafkaPrincipal, String> APPLICATION_ID = Map.of(
            KafkaPrincipal.BOOKING_SERVICE, "gpuaas.booking.application-id",
            KafkaPrincipal.IDLE_RECLAIMER, "gpuaas.reclaimer.application-id");

    private static final Pattern ENV_PLACEHOLDER = Pattern.compile("\\$\\{([A-Z0-9_]+)}");

    @ParameterizedTest
    @FieldSource("TARGETS")
    void shouldGrantEveryPrincipalExactlyTheAclsOfTheAccessTableWhenRendered(String target) {
        Rendering rendering = Rendering.of(target);
        String prefix = ServiceConfig.of(rendering, SERVICES.getFirst())
                .get("gpuaas.kafka.topic-prefix")
                .orElseThrow();
        Map<String, Map<String, Object>> users = users(rendering);
        assertThat(users.keySet())
                .as("KafkaUsers of %s", target)
                .containsExactlyInAnyOrderElementsOf(Arrays.stream(KafkaPrincipal.values())
                        .map(KafkaPrincipal::userName)
                        .toList());

        for (KafkaPrincipal principal : KafkaPrincipal.values()) {
            Set<AclBinding> rendered = new HashSet<>(StrimziAcls.of(users.get(principal.userName())));
            Set<AclBinding> table = new HashSet<>(KafkaAccess.acls(principal, prefix));
            assertThat(rendered)
                    .as("ACLs of KafkaUser %s vs KafkaAccess", principal.userName())
                    .containsExactlyInAnyOrderElementsOf(table);
        }
    }

    @ParameterizedTest
    @FieldSource("TARGETS")
    void shouldNameEveryTopicLiterallyAndKeepTheSreUserReadOnlyWhenRendered(String target) {
        for (Map<String, Object> user : users(Rendering.of(target)).values()) {
            KafkaPrincipal principal = principalNamed(Rendering.name(user));
            for (Map<String, Object> acl : Yaml.list(user, "spec", "authorization", "acls")) {
                String what = principal.userName() + " " + acl.get("resource");
                String name = Yaml.string(acl, "resource", "name");
                assertThat(name).as("%s names its resource", what).isNotBlank().doesNotContain("*");
                assertThat(Yaml.string(acl, "resource", "type")).as(what).isNotEqualTo("cluster");
                assertThat(Yaml.list(acl, "operations")).as(what).asString().doesNotContain("All");
                if ("topic".equals(Yaml.string(acl, "resource", "type"))
                        && "prefix".equals(Yaml.string(acl, "resource", "patternType"))) {
                    assertThat(principal.streamsApplicationId())
                            .as("%s: a topic prefix of a Streams app", what)
                            .isNotNull();
                    assertThat(name).as(what).isEqualTo(principal.streamsApplicationId() + "-");
                }
                if (principal == KafkaPrincipal.SRE) {
                    assertThat(Yaml.list(acl, "operations"))
                            .as(what)
                            .asString()
                            .matches("\\[(Read|Describe)(, (Read|Describe))*]");
                }
            }
        }
    }

    @ParameterizedTest
    @FieldSource("TARGETS")
    void shouldGiveEachServiceItsOwnKafkaCredentialsAndNoOtherWhenRendered(String target) {
        Rendering rendering = Rendering.of(target);
        Map<String, Object> kafka = rendering.ofKind("Kafka").getFirst();
        String secretPrefix = String.valueOf(Yaml.at(kafka, "spec", "entityOperator", "userOperator", "secretPrefix"))
                .replace("null", "");
        Set<String> userSecrets = users(rendering).keySet().stream()
                .map(u -> secretPrefix + u)
                .collect(Collectors.toCollection(TreeSet::new));
        String cluster = Rendering.name(kafka);
        for (String service : SERVICES) {
            String own = secretPrefix + principalOf(service).userName();
            PodWiring pod = PodWiring.of(rendering, service);
            Set<String> secrets = pod.secretNames();
            assertThat(secrets.stream().filter(userSecrets::contains))
                    .as("KafkaUser Secrets %s reads", service)
                    .containsExactly(own);
            assertThat(secrets)
                    .as("%s reads no CA private key", service)
                    .doesNotContain(cluster + "-cluster-ca", cluster + "-clients-ca");

            String jaas = ServiceConfig.of(rendering, service)
                    .get("gpuaas.kafka.properties.sasl.jaas.config")
                    .orElseThrow(() -> new AssertionError(service + " sets no sasl.jaas.config"));
            Matcher placeholder = ENV_PLACEHOLDER.matcher(jaas);
            assertThat(placeholder.matches())
                    .as("%s sasl.jaas.config %s is an env placeholder", service, jaas)
                    .isTrue();
            assertThat(pod.envFromSecret(placeholder.group(1)))
                    .as("%s env %s", service, placeholder.group(1))
                    .isEqualTo(own + "/sasl.jaas.config");
        }
    }

    @ParameterizedTest
    @FieldSource("TARGETS")
    void shouldRunEachStreamsServiceUnderTheApplicationIdItsUserIsGrantedWhenRendered(String target) {
        Rendering rendering = Rendering.of(target);
        for (String service : SERVICES) {
            KafkaPrincipal principal = principalOf(service);
            ServiceConfig config = ServiceConfig.of(rendering, service);
            if (principal.streamsApplicationId() == null) {
                assertThat(config.properties().keySet())
                        .as("%s runs no Streams application", service)
                        .noneMatch(k -> k.endsWith(".application-id"));
            } else {
                assertThat(config.get(APPLICATION_ID.get(principal)))
                        .as("%s application id", service)
                        .contains(principal.streamsApplicationId());
            }
        }
        // No service creates the registry's topics (they are the KafkaTopics); its user may create only its Streams
        // internal topics, which service-kit's KafkaAccessIT proves against a broker.
        assertThat(ServiceConfig.of(rendering, "booking-service").properties())
                .doesNotContainKey("gpuaas.booking.create-topics");
    }

    @ParameterizedTest
    @FieldSource("TARGETS")
    void shouldAuthenticateAndAuthorizeEveryClientOnTheListenerTheServicesUseWhenRendered(String target) {
        Rendering rendering = Rendering.of(target);
        Map<String, Object> kafka = rendering.ofKind("Kafka").getFirst();
        assertThat(Yaml.list(kafka, "spec", "kafka", "listeners"))
                .as("listeners without authentication")
                .allSatisfy(l -> assertThat(Yaml.string(l, "authentication", "type"))
                        .as(l.get("name") + "")
                        .isIn("scram-sha-512", "tls"));
        assertThat(Yaml.string(kafka, "spec", "kafka", "authorization", "type")).isEqualTo("simple");
        assertThat(Yaml.list(kafka, "spec", "kafka", "authorization", "superUsers"))
                .as("gpuaas super users")
                .isEmpty();
        assertThat(Yaml.string(kafka, "spec", "kafka", "config", "allow.everyone.if.no.acl.found"))
                .isNotEqualTo("true");
        assertThat(Yaml.at(kafka, "spec", "entityOperator", "userOperator"))
                .as("user operator")
                .isNotNull();

        Map<String, Object> listener = servicesListener(kafka);
        boolean tls = Boolean.TRUE.equals(listener.get("tls"));
        for (String service : SERVICES) {
            ServiceConfig config = ServiceConfig.of(rendering, service);
            String scramOrTls = Yaml.string(listener, "authentication", "type");
            if ("scram-sha-512".equals(scramOrTls)) {
                assertThat(config.get("gpuaas.kafka.properties.security.protocol"))
                        .as(service)
                        .contains(tls ? "SASL_SSL" : "SASL_PLAINTEXT");
                assertThat(config.get("gpuaas.kafka.properties.sasl.mechanism"))
                        .as(service)
                        .contains("SCRAM-SHA-512");
            } else {
                assertThat(config.get("gpuaas.kafka.properties.security.protocol"))
                        .as(service)
                        .contains("SSL");
            }
            if (tls) {
                String caDir =
                        PodWiring.of(rendering, service).mountOfSecret(Rendering.name(kafka) + "-cluster-ca-cert");
                assertThat(config.get("gpuaas.kafka.properties.ssl.truststore.location"))
                        .as("%s truststore", service)
                        .contains(caDir + "/ca.crt");
                assertThat(config.get("gpuaas.kafka.properties.ssl.truststore.type"))
                        .as(service)
                        .contains("PEM");
            }
        }
    }

    @ParameterizedTest
    @FieldSource("TARGETS")
    void shouldLetOnlyTheServicePodsAndSreToolingReachTheListenerWhenRendered(String target) {
        Rendering rendering = Rendering.of(target);
        List<Map<String, Object>> peers =
                Yaml.list(servicesListener(rendering.ofKind("Kafka").getFirst()), "networkPolicyPeers");
        assertThat(peers).as("networkPolicyPeers (none would admit every pod)").isNotEmpty();
        assertThat(peers).as("peers outside the Kafka namespace").allSatisfy(p -> assertThat(p)
                .containsOnlyKeys("podSelector"));
        for (Map<String, Object> deployment : rendering.ofKind("Deployment")) {
            String name = Rendering.name(deployment);
            Map<String, Object> labels = Yaml.map(deployment, "spec", "template", "metadata", "labels");
            boolean admitted = peers.stream().anyMatch(p -> LabelSelector.matches(Yaml.map(p, "podSelector"), labels));
            assertThat(admitted).as("%s may reach Kafka", name).isEqualTo(SERVICES.contains(name));
        }
        assertThat(peers)
                .as("SRE tooling")
                .anyMatch(p ->
                        LabelSelector.matches(Yaml.map(p, "podSelector"), Map.of("gpuaas.io/kafka-client", "sre")));
    }

    /** The listener the services connect to: the cluster's internal one. */
    static Map<String, Object> servicesListener(Map<String, Object> kafka) {
        return Yaml.list(kafka, "spec", "kafka", "listeners").stream()
                .filter(l -> "internal".equals(l.get("type")))
                .findFirst()
                .orElseThrow(() -> new AssertionError("Kafka " + Rendering.name(kafka) + " has no internal listener"));
    }

    private static Map<String, Map<String, Object>> users(Rendering rendering) {
        return rendering.ofKind("KafkaUser").stream().collect(Collectors.toMap(Rendering::name, u -> u));
    }

    private static KafkaPrincipal principalOf(String service) {
        return KafkaPrincipal.valueOf(service.toUpperCase(Locale.ROOT).replace('-', '_'));
    }

    private static KafkaPrincipal principalNamed(String userName) {
        return Arrays.stream(KafkaPrincipal.values())
                .filter(p -> p.userName().equals(userName))
                .findFirst()
                .orElseThrow(() -> new AssertionError("KafkaUser " + userName + " is no KafkaPrincipal"));
    }
}
