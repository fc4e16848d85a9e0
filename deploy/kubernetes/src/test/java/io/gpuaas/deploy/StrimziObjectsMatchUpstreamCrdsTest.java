package io.gpuaas.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Every Strimzi object of every kustomization is one the installed Strimzi accepts: its apiVersion is served and its
 * fields fit the upstream CRD's schema (what {@link CrdSchemas} checks, and what it does not, is written there).
 * The upstream CRDs are reference material outside this repository ({@code ../shared/crds}, or
 * {@code -Dgpuaas.crds=<dir>}); without them the test is skipped, so the project builds on its own.
 */
class StrimziObjectsMatchUpstreamCrdsTest {

    static final List<String> TARGETS = Rendering.TARGETS;
    private static final String GROUP = "kafka.strimzi.io";
    private static final ObjectMapper JSON = new ObjectMapper();

    private static CrdSchemas loaded;

    /** The upstream Strimzi CRDs; each test is reported skipped (not silently absent) without them. */
    private static synchronized CrdSchemas strimzi() {
        Path dir = CrdSchemas.directory().orElse(null);
        Assumptions.assumeTrue(dir != null, "upstream CRDs not found (../shared/crds or -Dgpuaas.crds)");
        if (loaded == null) {
            loaded = CrdSchemas.load(dir, GROUP);
        }
        return loaded;
    }

    @ParameterizedTest
    @FieldSource("TARGETS")
    void shouldValidateEveryStrimziObjectAgainstTheUpstreamCrdWhenRendered(String target) {
        CrdSchemas crds = strimzi();
        List<Map<String, Object>> objects = Rendering.of(target).objects().stream()
                .filter(o -> String.valueOf(o.get("apiVersion")).startsWith(GROUP + "/"))
                .toList();
        assertThat(objects)
                .extracting(o -> o.get("kind"))
                .as("Strimzi kinds of %s", target)
                .contains("Kafka", "KafkaNodePool", "KafkaTopic", "KafkaUser");

        List<String> problems = new ArrayList<>();
        for (Map<String, Object> o : objects) {
            crds.problems(o).forEach(p -> problems.add(o.get("kind") + " " + Rendering.name(o) + ": " + p));
        }
        assertThat(problems)
                .as("%s objects the Strimzi API would refuse", target)
                .isEmpty();
    }

    @Test
    void shouldRefuseAnApiVersionStrimziNoLongerServesWhenAnObjectStillUsesIt() {
        ObjectNode kafka = renderedKafka();
        kafka.put("apiVersion", GROUP + "/v1beta2");

        assertThat(strimzi().problems(kafka))
                .singleElement()
                .asString()
                .contains("kafka.strimzi.io/v1beta2 is not served")
                .contains("kafka.strimzi.io/v1");
    }

    @Test
    void shouldRefuseAFieldTheSchemaDoesNotDeclareWhenItIsMisspelledOrRemoved() {
        ObjectNode kafka = renderedKafka();
        ((ObjectNode) kafka.at("/spec/kafka/listeners/0/authentication")).put("mechanism", "SCRAM-SHA-512");
        // Removed in v1 along with ZooKeeper.
        ((ObjectNode) kafka.at("/spec")).putObject("zookeeper").put("replicas", 3);

        assertThat(strimzi().problems(kafka))
                .hasSize(2)
                .anySatisfy(p -> assertThat(p).contains("mechanism"))
                .anySatisfy(p -> assertThat(p).contains("zookeeper"));
    }

    @Test
    void shouldRefuseAMissingRequiredFieldAndAValueOutsideItsEnum() {
        ObjectNode kafka = renderedKafka();
        ((ObjectNode) kafka.at("/spec/kafka/listeners/0")).remove("tls");
        ((ObjectNode) kafka.at("/spec/kafka/listeners/0/authentication")).put("type", "scram-sha-256");

        assertThat(strimzi().problems(kafka))
                .hasSize(2)
                .anySatisfy(p -> assertThat(p).contains("tls"))
                .anySatisfy(p -> assertThat(p).contains("type"));
    }

    @Test
    void shouldRefuseTheV1beta2AclShapeWhenAKafkaUserStillUsesIt() {
        Map<String, Object> user = Rendering.of("base").ofKind("KafkaUser").getFirst();
        ObjectNode node = JSON.valueToTree(user);
        ObjectNode acl = (ObjectNode) node.at("/spec/authorization/acls/0");
        acl.remove("operations");
        acl.put("operation", "Read");

        assertThat(strimzi().problems(node))
                .hasSize(2)
                .anySatisfy(p -> assertThat(p).contains("operations"))
                .anySatisfy(p -> assertThat(p).contains("operation"));
    }

    private static ObjectNode renderedKafka() {
        return JSON.valueToTree(Rendering.of("base").ofKind("Kafka").getFirst());
    }
}
