package io.gpuaas.system.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.events.Json;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.local.LocalStack;
import io.gpuaas.local.StackOptions;
import io.gpuaas.local.kafka.KafkaIdentities;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The local stack as the scenario runs it: every port ephemeral, no demo workloads (the scenario brings its own),
 * the four services as child JVMs from their modules' {@code target/} folders with the short windows of
 * {@link ScenarioTiming}, files and logs under {@code system-tests/target/e2e-stack/}.
 */
final class E2eStack implements AutoCloseable {

    private final LocalStack stack;
    private final JsonNode tokens;
    private final Path targetDir;

    private E2eStack(LocalStack stack, JsonNode tokens, Path targetDir) {
        this.stack = stack;
        this.tokens = tokens;
        this.targetDir = targetDir;
    }

    static E2eStack start() throws Exception {
        return start(List.of());
    }

    /** The same stack with more {@code deploy/local/up} options, e.g. {@code --only booking-service}. */
    static E2eStack start(List<String> moreOptions) throws Exception {
        return start(moreOptions, UnaryOperator.identity());
    }

    /**
     * The same stack with more options, and every service reading the pool catalog {@code pools} makes of the
     * stack's (e.g. a no-show grace of seconds): the file is rewritten after the cluster is seeded from it, before
     * any service starts.
     */
    static E2eStack start(List<String> moreOptions, UnaryOperator<PoolCatalog> pools) throws Exception {
        Path module = Path.of("").toAbsolutePath();
        // The module sits in the repository root; -Dgpuaas.repo-root says otherwise for a copy run elsewhere.
        Path repoRoot = Path.of(
                System.getProperty("gpuaas.repo-root", module.getParent().toString()));
        Path targetDir = module.resolve("target/e2e-stack");
        List<String> args = new ArrayList<>(List.of(
                "--gpus",
                "16",
                "--tenants",
                "2",
                "--no-demo-workloads",
                "--kafka-port",
                "0",
                "--kube-port",
                "0",
                "--fleet-port",
                "0",
                "--service-port",
                "0",
                "--repo-root",
                repoRoot.toString(),
                "--target-dir",
                targetDir.toString(),
                "--ready-timeout",
                "240"));
        ScenarioTiming.serviceProperties().forEach(p -> args.addAll(List.of("--service-property", p)));
        args.addAll(moreOptions);
        LocalStack stack = LocalStack.start(StackOptions.parse(args.toArray(String[]::new)));
        try {
            Path poolsFile = stack.file("pools");
            Files.writeString(
                    poolsFile,
                    pools.apply(PoolCatalog.load(Optional.of(poolsFile))).toJson());
            stack.startServices();
            JsonNode tokens = Json.mapper().readTree(stack.file("tokens").toFile());
            return new E2eStack(stack, tokens, targetDir);
        } catch (Exception | Error e) {
            stack.close();
            throw e;
        }
    }

    /** The demo token of {@code name}: a tenant, {@code admin} or {@code prometheus}. */
    String token(String name) {
        return tokens.get(name).get("token").asText();
    }

    String url(String service) {
        return stack.service(service).url();
    }

    /** host:port of a service, as a Prometheus target. */
    String hostPort(String service) {
        return "127.0.0.1:" + stack.service(service).port();
    }

    /** The broker's address (it takes SASL only: a client needs one of {@link #kafka()}'s logins). */
    String bootstrapServers() {
        return stack.bootstrapServers();
    }

    /** kcat's configuration file for the read-only SRE user, as the stack wrote it. */
    Path kcatConfig() {
        return stack.file("kcat-sre");
    }

    /** The stack's Kafka users (each service's, the SRE's, the super user's). */
    KafkaIdentities kafka() {
        return stack.kafkaIdentities();
    }

    KubernetesClient kube() {
        return stack.kubernetes().client();
    }

    Path targetDir() {
        return targetDir;
    }

    /** The last lines of every service log, for a failure message. */
    String logTails() {
        StringBuilder text = new StringBuilder();
        for (var service : stack.runningServices()) {
            try {
                List<String> lines = Files.readAllLines(service.log());
                text.append("\n--- ")
                        .append(service.spec().name())
                        .append(" (")
                        .append(service.log())
                        .append(")\n")
                        .append(String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size())));
            } catch (IOException e) {
                text.append("\n--- ").append(service.spec().name()).append(": ").append(e.getMessage());
            }
        }
        return text.toString();
    }

    @Override
    public void close() {
        stack.close();
    }
}
