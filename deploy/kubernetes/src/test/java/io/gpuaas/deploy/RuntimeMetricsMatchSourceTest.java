package io.gpuaas.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Cross-checks the source-derived metric list ({@link ExportedSeries}) against the real thing where it can: when a
 * service has been built ({@code target/classes} newer than its sources, and {@code target/classpath.txt}), its
 * {@code *Metrics} class is instantiated on a fresh {@code PrometheusRegistry} in an isolated class loader and the
 * families of {@code registry.scrape()} must equal the families the extraction read from that class. Skipped for a
 * service that is not built or built from older sources (this module also builds alone).
 */
class RuntimeMetricsMatchSourceTest {

    @ParameterizedTest
    @ValueSource(strings = {"booking-service", "quota-projector", "idle-reclaimer"})
    void shouldRegisterExactlyTheFamiliesReadFromSourceWhenTheServiceIsBuilt(String service) throws Exception {
        Path module = Rendering.repoRoot().resolve(service);
        Path classes = module.resolve("target/classes");
        Path classpath = module.resolve("target/classpath.txt");
        assumeTrue(Files.isDirectory(classes) && Files.isRegularFile(classpath), service + " is not built");
        Path metricsClass = metricsClass(classes);
        assumeTrue(metricsClass != null, service + " has no *Metrics class taking a registry");
        assumeTrue(
                !sourcesNewerThan(module.resolve("src/main/java"), Files.getLastModifiedTime(metricsClass)),
                service + " was built from older sources");

        String className =
                classes.relativize(metricsClass).toString().replace('/', '.').replace(".class", "");
        Set<String> runtime = new TreeSet<>();
        try (URLClassLoader loader =
                new URLClassLoader(urls(classes, classpath), ClassLoader.getPlatformClassLoader())) {
            Class<?> registryType = loader.loadClass("io.prometheus.metrics.model.registry.PrometheusRegistry");
            Object registry = registryType.getConstructor().newInstance();
            loader.loadClass(className).getConstructor(registryType).newInstance(registry);
            Object snapshots = registryType.getMethod("scrape").invoke(registry);
            for (Object snapshot : (Iterable<?>) snapshots) {
                Object metadata = snapshot.getClass().getMethod("getMetadata").invoke(snapshot);
                Method name = metadata.getClass().getMethod("getName");
                String type = snapshot.getClass()
                        .getSimpleName()
                        .replace("Snapshot", "")
                        .toUpperCase(Locale.ROOT);
                runtime.add(normalized((String) name.invoke(metadata), type));
            }
        }
        String file = metricsClass.getFileName().toString().replace(".class", ".java");
        Set<String> fromSource = new TreeSet<>();
        for (JavaSources.SourceFile source : JavaSources.of(service)) {
            if (source.fileName().equals(file)) {
                ExportedSeries.scan().families().stream()
                        .filter(f -> f.module().equals(service))
                        .filter(f -> source.code().contains("\"" + f.name() + "\""))
                        .forEach(f ->
                                fromSource.add(normalized(f.name(), f.type().name())));
            }
        }
        assertThat(runtime).as("families registered by %s", className).isNotEmpty();
        assertThat(runtime)
                .as("families %s registers vs what the source scan found", className)
                .isEqualTo(fromSource);
    }

    private static String normalized(String name, String type) {
        String base = "COUNTER".equals(type) && name.endsWith("_total") ? name.substring(0, name.length() - 6) : name;
        return base + " " + type;
    }

    private static Path metricsClass(Path classes) throws IOException {
        try (Stream<Path> files = Files.walk(classes)) {
            return files.filter(p -> p.toString().contains("/metrics/")
                            && p.getFileName().toString().matches("[A-Z]\\w*Metrics\\.class"))
                    .findFirst()
                    .orElse(null);
        }
    }

    private static boolean sourcesNewerThan(Path sources, FileTime built) throws IOException {
        try (Stream<Path> files = Files.walk(sources)) {
            return files.filter(Files::isRegularFile).anyMatch(p -> {
                try {
                    return Files.getLastModifiedTime(p).compareTo(built) > 0;
                } catch (IOException e) {
                    return true;
                }
            });
        }
    }

    private static URL[] urls(Path classes, Path classpath) throws IOException {
        List<URL> urls = new ArrayList<>();
        urls.add(classes.toUri().toURL());
        for (String jar : Files.readString(classpath).trim().split(":")) {
            if (!jar.isBlank()) {
                urls.add(Path.of(jar).toUri().toURL());
            }
        }
        return urls.toArray(URL[]::new);
    }
}
