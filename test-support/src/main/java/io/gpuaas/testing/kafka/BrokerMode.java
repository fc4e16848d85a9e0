package io.gpuaas.testing.kafka;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * Which broker the shared test broker is: {@code embedded}, {@code container} or {@code auto}
 * (container when a Docker daemon answers, else embedded). Set with system property
 * {@value #PROPERTY} or environment variable {@value #ENV}; default {@code auto}.
 */
enum BrokerMode {
    EMBEDDED, CONTAINER, AUTO;

    static final String PROPERTY = "gpuaas.test.kafka";
    static final String ENV = "GPUAAS_TEST_KAFKA";

    static BrokerMode configured() {
        String value = Optional.ofNullable(System.getProperty(PROPERTY))
            .or(() -> Optional.ofNullable(System.getenv(ENV)))
            .orElse("auto");
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(PROPERTY + "/" + ENV + " must be embedded, container or auto, not " + value, e);
        }
    }

    /** Resolves AUTO; the cheap socket probe runs first so a machine without Docker pays nothing. */
    BrokerMode resolve() {
        if (this != AUTO) {
            return this;
        }
        return dockerLikelyReachable() && testcontainersSeesDocker() ? CONTAINER : EMBEDDED;
    }

    private static boolean dockerLikelyReachable() {
        String host = System.getenv("DOCKER_HOST");
        if (host != null && !host.isBlank()) {
            return !host.startsWith("unix://") || unixSocketAnswers(Path.of(host.substring("unix://".length())));
        }
        Path home = Path.of(System.getProperty("user.home"));
        return Files.exists(home.resolve(".testcontainers.properties"))
            || unixSocketAnswers(Path.of("/var/run/docker.sock"))
            || unixSocketAnswers(home.resolve(".docker/run/docker.sock"));
    }

    private static boolean unixSocketAnswers(Path socket) {
        if (!Files.exists(socket)) {
            return false;
        }
        try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            return ch.connect(UnixDomainSocketAddress.of(socket));
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    private static boolean testcontainersSeesDocker() {
        try {
            return org.testcontainers.DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }
}
