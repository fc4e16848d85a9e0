package io.gpuaas.deploy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/** The objects {@code kubectl kustomize} renders for one kustomization of this module, parsed once per JVM. */
final class Rendering {

    /** Every kustomization a platform team may apply; each must render and pass every check. */
    static final List<String> TARGETS = List.of("base", "overlays/dev", "overlays/openshift");

    private static final Map<String, Rendering> CACHE = new ConcurrentHashMap<>();
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final KubernetesSerialization KUBE = new KubernetesSerialization();

    private final String target;
    private final List<Map<String, Object>> objects;

    private Rendering(String target, List<Map<String, Object>> objects) {
        this.target = target;
        this.objects = objects;
    }

    /** This module's directory (surefire runs in it). */
    static Path moduleDir() {
        return Path.of(System.getProperty("basedir", System.getProperty("user.dir")))
                .toAbsolutePath();
    }

    /** The reactor root, where the services' sources live. */
    static Path repoRoot() {
        return moduleDir().resolve("../..").normalize();
    }

    static Rendering of(String target) {
        return CACHE.computeIfAbsent(target, Rendering::render);
    }

    String target() {
        return target;
    }

    List<Map<String, Object>> objects() {
        return objects;
    }

    List<Map<String, Object>> ofKind(String kind) {
        return objects.stream().filter(o -> kind.equals(o.get("kind"))).toList();
    }

    /** The objects of {@code kind} as fabric8 model classes (for built-in kinds). */
    <T> List<T> typed(String kind, Class<T> type) {
        return ofKind(kind).stream().map(o -> KUBE.convertValue(o, type)).toList();
    }

    static String name(Map<String, Object> object) {
        return (String) Yaml.at(object, "metadata", "name");
    }

    private static Rendering render(String target) {
        Path dir = moduleDir().resolve(target);
        try {
            Process kubectl = new ProcessBuilder(kubectl(), "kustomize", dir.toString())
                    .redirectErrorStream(false)
                    .start();
            byte[] out = kubectl.getInputStream().readAllBytes();
            String err = new String(kubectl.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!kubectl.waitFor(60, TimeUnit.SECONDS) || kubectl.exitValue() != 0) {
                throw new IllegalStateException("kubectl kustomize " + target + " failed: " + err);
            }
            return new Rendering(target, parse(new String(out, StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new IllegalStateException("cannot run kubectl for " + target, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> parse(String multiDocument) throws IOException {
        List<Map<String, Object>> docs = new ArrayList<>();
        try (var parser = YAML.getFactory().createParser(multiDocument)) {
            var it = YAML.readValues(parser, Map.class);
            while (it.hasNext()) {
                Map<String, Object> doc = it.next();
                if (doc != null && !doc.isEmpty()) {
                    docs.add(doc);
                }
            }
        }
        return docs;
    }

    private static String kubectl() {
        String fromEnv = System.getenv("KUBECTL");
        if (fromEnv != null && !fromEnv.isBlank()) {
            return fromEnv;
        }
        return Files.isExecutable(Path.of("/usr/bin/kubectl")) ? "/usr/bin/kubectl" : "kubectl";
    }
}
