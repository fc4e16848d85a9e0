package io.gpuaas.kube;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Our minimal CRDs say what the upstream APIs say: same names, scope and served version, and a schema that is a
 * subset of upstream's ({@link SchemaSubset}), so the classes generated from it read and write real objects.
 * The upstream CRDs are reference material outside this repository ({@code ../shared/crds}, or
 * {@code -Dgpuaas.crds=<dir>}); a CRD is reported skipped when they, or its kind among them, are absent.
 */
class CrdSchemasMatchUpstreamTest {

    static List<String> ourCrds() {
        return Crds.ours();
    }

    @ParameterizedTest
    @MethodSource("ourCrds")
    void shouldDeclareOnlyUpstreamFieldsWithUpstreamTypesWhenUpstreamHasTheKind(String file) {
        JsonNode ours = Crds.ours(file);
        String group = ours.at("/spec/group").asText();
        String kind = ours.at("/spec/names/kind").asText();
        Path dir = Crds.upstreamDirectory().orElse(null);
        Assumptions.assumeTrue(dir != null, "upstream CRDs not found (../shared/crds or -Dgpuaas.crds)");
        JsonNode upstream = Crds.find(dir, group, kind).orElse(null);
        Assumptions.assumeTrue(upstream != null, "no upstream CRD of " + kind + "." + group + " in " + dir);

        assertThat(ours.at("/spec/scope")).as("scope of %s", kind).isEqualTo(upstream.at("/spec/scope"));
        assertThat(ours.at("/spec/names/plural")).as("plural of %s", kind).isEqualTo(upstream.at("/spec/names/plural"));
        List<String> problems = new ArrayList<>();
        for (JsonNode version : ours.at("/spec/versions")) {
            String name = version.path("name").asText();
            Crds.servedSchema(upstream, name)
                    .ifPresentOrElse(
                            schema -> SchemaSubset.problems(version.at("/schema/openAPIV3Schema"), schema)
                                    .forEach(p -> problems.add(name + " " + p)),
                            () -> problems.add(name + ": not served upstream"));
        }
        assertThat(problems)
                .as("%s fields that differ from %s upstream", file, kind)
                .isEmpty();
    }

    @Test
    void shouldAcceptASchemaThatIsASubsetOfUpstream() {
        assertThat(SchemaSubset.problems(Crds.parse(OURS), Crds.parse(UPSTREAM)))
                .isEmpty();
    }

    @Test
    void shouldRefuseAFieldWhenItsTypeDiffersFromUpstream() {
        String wrong = OURS.replace("stopPolicy: {type: string}", "stopPolicy: {type: boolean}")
                .replace("priority: {type: integer, format: int32}", "priority: {type: integer, format: int64}")
                .replace("nominalQuota: {x-kubernetes-int-or-string: true}", "nominalQuota: {type: string}");

        assertThat(SchemaSubset.problems(Crds.parse(wrong), Crds.parse(UPSTREAM)))
                .containsExactlyInAnyOrder(
                        ".spec.stopPolicy: type boolean, upstream string",
                        ".spec.priority: format int64, upstream int32",
                        ".spec.quotas[].nominalQuota: type string, upstream int-or-string");
    }

    @Test
    void shouldRefuseAFieldUpstreamDoesNotHaveWhenItIsMisspelled() {
        String misspelled = OURS.replace("cohortName:", "cohort:").replace("labels:", "lables:");

        assertThat(SchemaSubset.problems(Crds.parse(misspelled), Crds.parse(UPSTREAM)))
                .containsExactlyInAnyOrder(".spec.cohort: not in upstream", ".spec.selector.lables: not in upstream");
    }

    @Test
    void shouldRefuseAnObjectWhenItLacksAFieldUpstreamRequires() {
        String incomplete = OURS.replace("required: [name, nominalQuota]", "required: [name]")
                .replace("nominalQuota: {x-kubernetes-int-or-string: true}", "borrowingLimit: {type: string}");

        assertThat(SchemaSubset.problems(Crds.parse(incomplete), Crds.parse(UPSTREAM)))
                .containsExactlyInAnyOrder(
                        ".spec.quotas[]: required [name], upstream [name, nominalQuota]",
                        ".spec.quotas[].nominalQuota: required upstream but not declared",
                        ".spec.quotas[].borrowingLimit: not in upstream");
    }

    @Test
    void shouldRefuseAMapWhenItsValuesHaveAnotherTypeUpstream() {
        String wrong = OURS.replace("additionalProperties: {type: string}", "additionalProperties: {type: integer}");

        assertThat(SchemaSubset.problems(Crds.parse(wrong), Crds.parse(UPSTREAM)))
                .containsExactly(".spec.selector.labels{}: type integer, upstream string");
    }

    /** A small stand-in for an upstream schema, so these tests run without ../shared/crds. */
    private static final String UPSTREAM = """
            type: object
            properties:
              spec:
                type: object
                properties:
                  cohortName: {type: string, description: the cohort}
                  stopPolicy: {type: string, enum: [None, Hold, HoldAndDrain], default: None}
                  priority: {type: integer, format: int32}
                  flavorFungibility: {type: object}
                  selector:
                    type: object
                    properties:
                      labels: {type: object, additionalProperties: {type: string}}
                  quotas:
                    type: array
                    items:
                      type: object
                      required: [name, nominalQuota]
                      properties:
                        name: {type: string}
                        nominalQuota: {x-kubernetes-int-or-string: true}
                        lendingLimit: {x-kubernetes-int-or-string: true}
            """;

    /** What one of our minimal schemas looks like: a subset of {@link #UPSTREAM}. */
    private static final String OURS = """
            type: object
            properties:
              spec:
                type: object
                x-kubernetes-preserve-unknown-fields: true
                properties:
                  cohortName: {type: string}
                  stopPolicy: {type: string}
                  priority: {type: integer, format: int32}
                  selector:
                    type: object
                    properties:
                      labels: {type: object, additionalProperties: {type: string}}
                  quotas:
                    type: array
                    items:
                      type: object
                      required: [name, nominalQuota]
                      properties:
                        name: {type: string}
                        nominalQuota: {x-kubernetes-int-or-string: true}
            """;
}
