package io.gpuaas.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * The images the manifests run: the one Dockerfile at the repository root, given a service's folder as {@code MODULE},
 * starts that service's real main class as the non-root user the base Deployment declares, from what {@code package}
 * and {@code stage-libs.sh} produce. (No Docker daemon here: the images themselves are not built in CI.)
 */
class DockerfilesTest {

    static final List<String> SERVICES = RbacMatchesCodeTest.SERVICES;
    private static final Pattern USER = Pattern.compile("(?m)^USER (\\d+):(\\d+)$");

    @Test
    void shouldCopyTheStagedFilesOfTheModuleAndStartTheMainClassTheyName() throws IOException {
        assertThat(Files.readString(Rendering.repoRoot().resolve("Dockerfile")))
                .contains(
                        "ARG BASE_IMAGE=eclipse-temurin:21-jre-alpine",
                        "FROM ${BASE_IMAGE}\nARG MODULE\n",
                        "COPY --chown=10001:0 ${MODULE}/target/lib/ /app/lib/",
                        "COPY --chown=10001:0 ${MODULE}/target/classes/ /app/classes/",
                        "COPY --chown=10001:0 ${MODULE}/target/main-class /app/main-class",
                        "EXPOSE 8080",
                        "ENTRYPOINT [\"java\", \"-cp\", \"/app/classes:/app/lib/*\", \"@/app/main-class\"]");
        // The context is the repository root: what the Dockerfile copies must get past .dockerignore.
        assertThat(Files.readAllLines(Rendering.repoRoot().resolve(".dockerignore")))
                .contains("*", "!*/target/lib/", "!*/target/classes/", "!*/target/main-class");
    }

    @ParameterizedTest
    @FieldSource("SERVICES")
    void shouldStageTheServicesMainClassAndRunAsTheNonRootUserOfItsDeployment(String service, @TempDir Path dir)
            throws Exception {
        Path module = fixture(
                dir,
                service,
                Files.readString(Rendering.repoRoot().resolve(service).resolve("pom.xml")));

        assertThat(stage(dir, service)).isZero();
        String main = Files.readString(module.resolve("target/main-class")).trim();
        Path source = Rendering.repoRoot()
                .resolve(service)
                .resolve("src/main/java")
                .resolve(main.replace('.', '/') + ".java");
        assertThat(source).as("main class of %s", service).exists();
        assertThat(Files.readString(source)).contains("Micronaut.run(", "static void main(");

        Matcher user = USER.matcher(Files.readString(Rendering.repoRoot().resolve("Dockerfile")));
        assertThat(user.find()).as("numeric USER").isTrue();
        long uid = Long.parseLong(user.group(1));
        assertThat(uid).isPositive();
        Deployment deployment = Rendering.of("base").typed("Deployment", Deployment.class).stream()
                .filter(d -> service.equals(d.getMetadata().getName()))
                .findFirst()
                .orElseThrow();
        assertThat(deployment
                        .getSpec()
                        .getTemplate()
                        .getSpec()
                        .getSecurityContext()
                        .getRunAsUser())
                .isEqualTo(uid);
    }

    @Test
    void shouldStageEveryJarOfTheClasspathFileAndRefuseTwoJarsWithOneName(@TempDir Path dir) throws Exception {
        Path service = fixture(dir, "svc", pom("<exec.mainClass>io.example.Main</exec.mainClass>"));
        Path a =
                Files.writeString(Files.createDirectories(dir.resolve("m2/a/1")).resolve("a-1.jar"), "a");
        Path b =
                Files.writeString(Files.createDirectories(dir.resolve("m2/b/2")).resolve("b-2.jar"), "b");
        Files.writeString(service.resolve("target/classpath.txt"), a + ":" + b);

        assertThat(stage(dir, "svc")).isZero();
        assertThat(service.resolve("target/lib"))
                .isDirectoryContaining("glob:**/a-1.jar")
                .isDirectoryContaining("glob:**/b-2.jar");
        assertThat(Files.readString(service.resolve("target/main-class"))).isEqualTo("io.example.Main\n");

        Path clash = Files.writeString(
                Files.createDirectories(dir.resolve("m2/other/1")).resolve("a-1.jar"), "x");
        Files.writeString(service.resolve("target/classpath.txt"), a + ":" + clash);
        assertThat(stage(dir, "svc")).isNotZero();
    }

    @Test
    void shouldRefuseToStageAModuleWhosePomNamesNoMainClass(@TempDir Path dir) throws Exception {
        Path service = fixture(dir, "svc", pom(""));

        assertThat(stage(dir, "svc")).isNotZero();
        assertThat(service.resolve("target/main-class")).doesNotExist();
    }

    /** {@code <dir>/<name>} with the pom, {@code target/classes} and an empty {@code target/classpath.txt}. */
    private static Path fixture(Path dir, String name, String pom) throws IOException {
        Path module = Files.createDirectories(dir.resolve(name).resolve("target/classes"))
                .getParent()
                .getParent();
        Files.writeString(module.resolve("pom.xml"), pom);
        Files.writeString(module.resolve("target/classpath.txt"), "");
        return module;
    }

    private static String pom(String properties) {
        return "<project>\n  <properties>\n    " + properties + "\n  </properties>\n</project>\n";
    }

    private static int stage(Path workDir, String service) throws Exception {
        Path script = Rendering.moduleDir().resolve("images/stage-libs.sh");
        Process p = new ProcessBuilder("sh", script.toString(), service)
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as(out).isTrue();
        return p.exitValue();
    }
}
