package io.gpuaas.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Every PromQL query shipped (alerts, KEDA triggers, the Grafana dashboard) selects only series that exist: those the
 * gpuaas code registers (see {@link ExportedSeries}) plus a short, explicit list of series from exporters this
 * module deploys itself. A renamed metric breaks this test instead of silently emptying an alert or a scaler.
 */
class PromQlNamesExportedSeriesTest {

    static final List<String> TARGETS = Rendering.TARGETS;
    private static final ExportedSeries EXPORTED = ExportedSeries.scan();
    private static final Pattern LABEL_VALUES = Pattern.compile("label_values\\(\\s*([a-zA-Z_:][a-zA-Z0-9_:]*)");

    /** Series not written by gpuaas code, each with the condition under which the rendered overlay provides it. */
    private static final Map<String, Predicate<Rendering>> EXTERNAL = Map.of(
            // Synthesized by Prometheus for every scrape target.
            "up", r -> true,
            // Strimzi's Kafka Exporter, which the Kafka resource must enable.
            "kafka_consumergroup_lag",
                    r -> r.ofKind("Kafka").stream().anyMatch(k -> Yaml.at(k, "spec", "kafkaExporter") != null));

    @Test
    void shouldFindTheMetricsOfEveryServiceInItsSources() {
        assertThat(EXPORTED.unrecognized())
                .as("gpuaas_* names in metrics classes the extraction did not understand")
                .isEmpty();
        assertThat(EXPORTED.families())
                .extracting(ExportedSeries.Family::module)
                .contains("events", "idle-reclaimer", "metrics-gateway");
        assertThat(EXPORTED.seriesNames())
                .contains("gpuaas_dead_letter_records_total", "gpuaas_queue_pending_gpus", "gpuaas_workload_idle");
    }

    @ParameterizedTest
    @FieldSource("TARGETS")
    void shouldQueryOnlyExportedSeriesWhenAnOverlayIsRendered(String target) throws IOException {
        Rendering rendering = Rendering.of(target);
        List<Query> queries = queries(rendering);
        assertThat(queries).as("queries found in %s", target).hasSizeGreaterThan(10);

        Set<String> known = new TreeSet<>(EXPORTED.seriesNames());
        EXTERNAL.forEach((name, provided) -> {
            if (provided.test(rendering)) {
                known.add(name);
            }
        });
        List<String> unknown = new ArrayList<>();
        for (Query q : queries) {
            Set<String> names = PromQl.metricNames(q.promql());
            assertThat(names)
                    .as("metric names in %s: %s", q.where(), q.promql())
                    .isNotEmpty();
            names.stream().filter(n -> !known.contains(n)).forEach(n -> unknown.add(q.where() + ": " + n));
        }
        assertThat(unknown)
                .as("series no gpuaas code exports (known: %s)", known)
                .isEmpty();
    }

    @Test
    void shouldReadMetricNamesButNotFunctionsLabelsOrVariablesFromPromQl() {
        assertThat(
                        PromQl.metricNames(
                                "sum by (tenant, state) (increase(gpuaas_tenant_gpu_seconds_total{tenant=~\"$tenant\"}[$__range])) / 3600"))
                .containsExactly("gpuaas_tenant_gpu_seconds_total");
        assertThat(PromQl.metricNames("1 - (max(gpuaas_workload_idle{kind=\"InferenceService\"}) or vector(0))"))
                .containsExactly("gpuaas_workload_idle");
        assertThat(PromQl.metricNames("a_total / on (x) group_left (y) b offset 5m > 1e3"))
                .containsExactly("a_total", "b");
    }

    static List<Query> queries(Rendering rendering) throws IOException {
        List<Query> queries = new ArrayList<>();
        for (Map<String, Object> rule : rendering.ofKind("PrometheusRule")) {
            for (Map<String, Object> group : Yaml.list(rule, "spec", "groups")) {
                for (Map<String, Object> r : Yaml.list(group, "rules")) {
                    String name = r.containsKey("alert") ? "alert " + r.get("alert") : "record " + r.get("record");
                    queries.add(new Query(name, String.valueOf(r.get("expr"))));
                }
            }
        }
        for (Map<String, Object> so : rendering.ofKind("ScaledObject")) {
            for (Map<String, Object> trigger : Yaml.list(so, "spec", "triggers")) {
                if ("prometheus".equals(trigger.get("type"))) {
                    queries.add(
                            new Query("ScaledObject " + Rendering.name(so), Yaml.string(trigger, "metadata", "query")));
                }
            }
        }
        for (Map<String, Object> cm : rendering.ofKind("ConfigMap")) {
            for (Map.Entry<String, Object> data : Yaml.map(cm, "data").entrySet()) {
                if (data.getKey().endsWith(".json")
                        && String.valueOf(data.getValue()).contains("\"panels\"")) {
                    dashboardQueries(
                            data.getKey(), new ObjectMapper().readTree(String.valueOf(data.getValue())), queries);
                }
            }
        }
        return queries;
    }

    private static void dashboardQueries(String where, JsonNode node, List<Query> out) {
        if (node.isObject()) {
            node.fields().forEachRemaining(e -> {
                if (e.getKey().equals("expr") && e.getValue().isTextual()) {
                    out.add(new Query("dashboard " + where, e.getValue().asText()));
                } else if (e.getKey().equals("query") && e.getValue().isTextual()) {
                    Matcher m = LABEL_VALUES.matcher(e.getValue().asText());
                    if (m.find()) {
                        out.add(new Query("dashboard variable " + where, m.group(1)));
                    }
                } else {
                    dashboardQueries(where, e.getValue(), out);
                }
            });
        } else if (node.isArray()) {
            node.forEach(child -> dashboardQueries(where, child, out));
        }
    }

    record Query(String where, String promql) {}
}
