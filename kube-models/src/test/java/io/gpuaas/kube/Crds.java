package io.gpuaas.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/** CustomResourceDefinitions read from YAML files: ours from the classpath, upstream's from a folder. */
final class Crds {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    /** Upstream files are large (Kueue's Workload CRD is 1.4 MB): parsed once per folder and JVM. */
    private static final Map<Path, List<JsonNode>> LOADED = new ConcurrentHashMap<>();

    private Crds() {}

    /** Where the upstream CRDs live: {@code -Dgpuaas.crds=<dir>}, else {@code ../shared/crds} beside the project. */
    static Optional<Path> upstreamDirectory() {
        String configured = System.getProperty("gpuaas.crds");
        Path moduleDir = Path.of(System.getProperty("basedir", System.getProperty("user.dir")))
                .toAbsolutePath();
        Path dir = configured != null && !configured.isBlank()
                ? Path.of(configured)
                : moduleDir.resolve("../../shared/crds").normalize();
        return Files.isDirectory(dir) ? Optional.of(dir) : Optional.empty();
    }

    /** The file names of our CRDs ({@code crds/*.yaml} on the classpath, as test-support loads them). */
    static List<String> ours() {
        try (Stream<Path> files =
                Files.list(Path.of(Crds.class.getResource("/crds").toURI()))) {
            return files.map(f -> f.getFileName().toString())
                    .filter(f -> f.endsWith(".yaml"))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static JsonNode ours(String file) {
        try (var in = Crds.class.getResourceAsStream("/crds/" + file)) {
            return YAML.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The CRD of {@code group}/{@code kind} among the YAML documents of {@code dir}. */
    static Optional<JsonNode> find(Path dir, String group, String kind) {
        return LOADED.computeIfAbsent(dir, Crds::all).stream()
                .filter(crd -> group.equals(crd.at("/spec/group").asText())
                        && kind.equals(crd.at("/spec/names/kind").asText()))
                .findFirst();
    }

    /** The {@code openAPIV3Schema} of the served {@code version}, when the CRD serves it. */
    static Optional<JsonNode> servedSchema(JsonNode crd, String version) {
        for (JsonNode v : crd.at("/spec/versions")) {
            if (version.equals(v.path("name").asText()) && v.path("served").asBoolean(false)) {
                return Optional.of(v.at("/schema/openAPIV3Schema"));
            }
        }
        return Optional.empty();
    }

    static JsonNode parse(String yaml) {
        try {
            return YAML.readTree(yaml);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<JsonNode> all(Path dir) {
        List<JsonNode> crds = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file :
                    files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                try (var parser = YAML.getFactory().createParser(file.toFile())) {
                    YAML.readValues(parser, JsonNode.class).forEachRemaining(doc -> {
                        if (doc != null
                                && "CustomResourceDefinition"
                                        .equals(doc.path("kind").asText())) {
                            crds.add(doc);
                        }
                    });
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return crds;
    }
}
