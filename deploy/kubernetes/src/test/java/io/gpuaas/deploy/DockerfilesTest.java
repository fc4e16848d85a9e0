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
 * The images the manifests run: each service's Dockerfile starts that service's real main class as the non-root
 * user the base Deployment declares, from what {@code package} and {@code stage-libs.sh} produce. (No Docker daemon
 * here: the images themselves are not built in CI.)
 */
class DockerfilesTest {

    static final List<String> SERVICES = RbacMatchesCodeTest.SERVICES;
    private static final Pattern ENTRYPOINT = Pattern.compile(
            "(?m)^ENTRYPOINT \\[\"java\", \"-cp\", \"/app/classes:/app/lib/\\*\", \"([a-zA-Z0-9_.]+)\"]$");
    private static final Pattern USER = Pattern.compile("(?m)^USER (\\d+):(\\d+)$");

    @ParameterizedTest
    @FieldSource("SERVICES")
    void shouldStartTheServicesMainClassAsTheNonRootUserOfTheDeployment(String service) throws IOException {
        String dockerfile =
                Files.readString(Rendering.repoRoot().resolve(service).resolve("Dockerfile"));
        assertThat(dockerfile)
                .contains(
                        "ARG BASE_IMAGE=eclipse-temurin:21-jre-alpine",
                        "FROM ${BASE_IMAGE}",
                        "COPY --chown=10001:0 target/lib/ /app/lib/",
                        "COPY --chown=10001:0 target/classes/ /app/classes/",
                        "EXPOSE 8080");

        Matcher entry = ENTRYPOINT.matcher(dockerfile);
        assertThat(entry.find()).as("ENTRYPOINT of %s", service).isTrue();
        Path main = Rendering.repoRoot()
                .resolve(service)
                .resolve("src/main/java")
                .resolve(entry.group(1).replace('.', '/') + ".java");
        assertThat(main).as("main class of %s", service).exists();
        assertThat(Files.readString(main)).contains("Micronaut.run(", "static void main(");

        Matcher user = USER.matcher(dockerfile);
        assertThat(user.find()).as("numeric USER in %s", service).isTrue();
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
        Path service = Files.createDirectories(dir.resolve("svc/target/classes"))
                .getParent()
                .getParent();
        Path a =
                Files.writeString(Files.createDirectories(dir.resolve("m2/a/1")).resolve("a-1.jar"), "a");
        Path b =
                Files.writeString(Files.createDirectories(dir.resolve("m2/b/2")).resolve("b-2.jar"), "b");
        Files.writeString(service.resolve("target/classpath.txt"), a + ":" + b);

        assertThat(stage(dir)).isZero();
        assertThat(service.resolve("target/lib"))
                .isDirectoryContaining("glob:**/a-1.jar")
                .isDirectoryContaining("glob:**/b-2.jar");

        Path clash = Files.writeString(
                Files.createDirectories(dir.resolve("m2/other/1")).resolve("a-1.jar"), "x");
        Files.writeString(service.resolve("target/classpath.txt"), a + ":" + clash);
        assertThat(stage(dir)).isNotZero();
    }

    private static int stage(Path workDir) throws Exception {
        Path script = Rendering.moduleDir().resolve("images/stage-libs.sh");
        Process p = new ProcessBuilder("sh", script.toString(), "svc")
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as(out).isTrue();
        return p.exitValue();
    }
}
