package io.gpuaas.reclaim;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.gpuaas.kit.config.KafkaSettings;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.kit.runtime.ServiceComponent;
import io.gpuaas.reclaim.apply.ScaleAction;
import io.gpuaas.reclaim.config.ApplierSettings;
import io.gpuaas.reclaim.config.IdlePolicySettings;
import io.gpuaas.reclaim.config.ReclaimerSettings;
import io.gpuaas.reclaim.k8s.WorkerScaler;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The composition root builds every long-running part once, in the order the lifecycle runs them: the caches the
 * stream reads before the stream, the stream before the applier of its intents. Built without the container and never
 * started: the clients connect lazily and are closed again.
 */
class IdleReclaimerTest {

    private final KafkaClients kafka = new KafkaClients(new KafkaSettings("127.0.0.1:1", "gpuaas.", Map.of()));
    private final KubernetesClient client = new KubernetesClientBuilder()
            .withConfig(new ConfigBuilder()
                    .withMasterUrl("https://127.0.0.1:1")
                    .withNamespace("gpuaas")
                    .build())
            .withHttpClientFactory(new JdkHttpClientFactory())
            .build();
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private IdleReclaimer reclaimer;

    @TempDir
    Path stateDir;

    @AfterEach
    void close() {
        if (reclaimer != null) {
            // Never started: stopping ends what building opened, as the lifecycle would.
            reclaimer.components().reversed().forEach(c -> c.stop(Duration.ofSeconds(1)));
        }
        kafka.close();
        client.close();
    }

    @Test
    void shouldStartTheCachesThenTheStreamThenTheApplierWhenTheLifecycleRunsTheComponents() {
        reclaimer = build(IdleReclaimer.Options.defaults());

        assertThat(reclaimer.components().stream()
                        .sorted(Comparator.comparingInt(ServiceComponent::startOrder))
                        .map(ServiceComponent::name))
                .containsExactly(
                        "pod-owners",
                        "workload-directory",
                        "resume-requests",
                        "reclaim-announcer",
                        "reclaim-announcements",
                        "reclaim-streams",
                        "reclaim-applier",
                        "reclaim-intents");
        assertThat(reclaimer.resumes()).isNotNull();
    }

    @Test
    void shouldHandTheApplierTheWrappedWriteSideWhenOptionsWrapIt() {
        List<ScaleAction> wrapped = new CopyOnWriteArrayList<>();

        reclaimer = build(new IdleReclaimer.Options(scaler -> {
            wrapped.add(scaler);
            return scaler;
        }));

        assertThat(wrapped).hasSize(1);
    }

    @Test
    void shouldRegisterItsAndTheKitsMetricsOnTheServiceRegistry() {
        reclaimer = build(IdleReclaimer.Options.defaults());

        assertThat(registry.scrape().stream().map(s -> s.getMetadata().getPrometheusName()))
                .contains("gpuaas_reclaim_window_samples", "gpuaas_reconcile_queue_depth")
                .doesNotHaveDuplicates();
    }

    private IdleReclaimer build(IdleReclaimer.Options options) {
        ReclaimerSettings settings = new ReclaimerSettings(
                ReclaimerSettings.Mode.DIRECT,
                false,
                30,
                false,
                WorkerScaler.RawStrategy.STOP_ANNOTATION,
                "gpuaas-idle-reclaimer",
                Duration.ofMinutes(10),
                Duration.ofSeconds(60),
                Duration.ofSeconds(60),
                stateDir.toString());
        IdlePolicySettings policy = new IdlePolicySettings(
                0.01,
                Duration.ofMinutes(15),
                Duration.ofSeconds(5),
                0.9,
                Duration.ofMinutes(10),
                Duration.ofMinutes(5));
        return new IdleReclaimer(
                new IdleReclaimer.Settings(settings, new ApplierSettings(4), policy),
                client,
                kafka,
                event -> {},
                registry,
                options);
    }
}
