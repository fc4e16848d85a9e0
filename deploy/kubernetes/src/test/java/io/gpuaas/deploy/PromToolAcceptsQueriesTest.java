package io.gpuaas.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Prometheus' own parser accepts every alert and every query (KEDA triggers and dashboard panels, wrapped as
 * recording rules with Grafana's variables replaced by sample values). Needs promtool (Debian's prometheus
 * package); skipped where it is not installed.
 */
class PromToolAcceptsQueriesTest {

    static final List<String> TARGETS = Rendering.TARGETS;

    @ParameterizedTest
    @FieldSource("TARGETS")
    void shouldParseEveryAlertAndQueryWhenPromtoolChecksThem(String target, @TempDir Path dir) throws Exception {
        Path promtool = Path.of("/usr/bin/promtool");
        assumeTrue(Files.isExecutable(promtool), "promtool not installed");
        Rendering rendering = Rendering.of(target);
        List<Object> groups = new ArrayList<>();
        rendering.ofKind("PrometheusRule").forEach(r -> groups.addAll(Yaml.list(r, "spec", "groups")));
        List<Map<String, Object>> records = new ArrayList<>();
        int i = 0;
        for (PromQlNamesExportedSeriesTest.Query q : PromQlNamesExportedSeriesTest.queries(rendering)) {
            if (q.where().startsWith("alert") || q.where().startsWith("dashboard variable")) {
                continue;
            }
            Map<String, Object> record = new LinkedHashMap<>();
            record.put("record", "gpuaas:check:" + i++);
            record.put(
                    "expr",
                    q.promql()
                            .replace("$__rate_interval", "5m")
                            .replace("$__range", "1h")
                            .replace("$tenant", ".*"));
            records.add(record);
        }
        groups.add(Map.of("name", "queries-of-" + target.replace('/', '-'), "rules", records));
        Path file = dir.resolve("rules.yaml");
        new ObjectMapper(new YAMLFactory()).writeValue(file.toFile(), Map.of("groups", groups));

        Process p = new ProcessBuilder(promtool.toString(), "check", "rules", file.toString())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).contains("SUCCESS");
    }
}
