package io.gpuaas.metrics.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.events.Labels;
import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.kit.k8s.InformerCache;
import io.gpuaas.kit.runtime.ComponentHealth.State;
import io.gpuaas.metrics.projection.TenantDirectory;
import io.gpuaas.metrics.scrape.Backoff;
import io.gpuaas.metrics.scrape.ScrapeHealth;
import io.gpuaas.metrics.scrape.ScrapeScheduler;
import io.gpuaas.testing.k8s.KubernetesApiExtension;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Discovery and tenant mapping against an API server (fabric8 CRUD mock): informers, not polling. */
@ExtendWith(KubernetesApiExtension.class)
class KubernetesDiscoveryIT {

    @Test
    void shouldScrapeAnExporterPodWhenItRunsAndStopWhenItIsDeleted(KubernetesClient client) throws Exception {
        HttpServer exporter = exporter();
        List<GpuScrape> published = new CopyOnWriteArrayList<>();
        try (ScrapeScheduler scheduler = new ScrapeScheduler(
                new Backoff(Duration.ofMillis(200), Duration.ofSeconds(1)),
                Duration.ofSeconds(1),
                published::add,
                new ScrapeHealth(),
                Clock.systemUTC(),
                new PrometheusRegistry())) {
            InformerCache<Pod> discovery = DcgmExporterDiscovery.cache(
                    client,
                    "gpu-operator",
                    "app.kubernetes.io/name=dcgm-exporter",
                    exporter.getAddress().getPort(),
                    "/metrics",
                    scheduler,
                    new PrometheusRegistry());
            scheduler.start();
            scheduler.lead();
            discovery.start();
            client.pods().inNamespace("gpu-operator").resource(pod("Pending")).create();
            Pod running = client.pods()
                    .inNamespace("gpu-operator")
                    .withName("dcgm-exporter-abc")
                    .edit(p -> new PodBuilder(p)
                            .editStatus()
                            .withPhase("Running")
                            .withPodIP("127.0.0.1")
                            .endStatus()
                            .build());
            assertThat(running.getStatus().getPhase()).isEqualTo("Running");

            await().atMost(Duration.ofSeconds(10)).until(() -> !published.isEmpty());
            assertThat(published.getFirst().node())
                    .as("the pod's node, not the exporter's Hostname label")
                    .isEqualTo("gpu-node-1");
            assertThat(published.getFirst().devices()).singleElement().satisfies(d -> {
                assertThat(d.modelName()).isEqualTo("Tesla T4");
                assertThat(d.hostnameLabel()).isEqualTo("424773df46e0");
            });

            client.pods()
                    .inNamespace("gpu-operator")
                    .withName("dcgm-exporter-abc")
                    .delete();
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> scheduler.targets().isEmpty());
            discovery.stop(Duration.ofSeconds(2));
        } finally {
            exporter.stop(0);
        }
    }

    @Test
    void shouldMapANamespaceToItsTenantWhenTheLabelIsSetOrRemoved(KubernetesClient client) {
        TenantDirectory directory = new TenantDirectory(Map.of("legacy", "team-old"));
        InformerCache<Namespace> watcher =
                TenantNamespaceWatcher.cache(client, Labels.TENANT, directory, new PrometheusRegistry());
        try {
            assertThat(watcher.health().state()).isEqualTo(State.STARTING);
            watcher.start();
            await().atMost(Duration.ofSeconds(10)).until(() -> watcher.health().ready());
            client.namespaces()
                    .resource(new NamespaceBuilder()
                            .withNewMetadata()
                            .withName("team-a-dev")
                            .addToLabels(Labels.TENANT, "team-a")
                            .endMetadata()
                            .build())
                    .create();

            await().atMost(Duration.ofSeconds(10)).until(() -> "team-a".equals(directory.tenantOf("team-a-dev")));
            assertThat(directory.tenantOf("legacy")).isEqualTo("team-old");

            client.namespaces().withName("team-a-dev").delete();
            await().atMost(Duration.ofSeconds(10)).until(() -> directory.tenantOf("team-a-dev") == null);
        } finally {
            watcher.stop(Duration.ofSeconds(2));
        }
        assertThat(watcher.health().state()).isEqualTo(State.STOPPED);
    }

    private static Pod pod(String phase) {
        return new PodBuilder()
                .withNewMetadata()
                .withName("dcgm-exporter-abc")
                .withNamespace("gpu-operator")
                .addToLabels("app.kubernetes.io/name", "dcgm-exporter")
                .endMetadata()
                .withNewSpec()
                .withNodeName("gpu-node-1")
                .addNewContainer()
                .withName("exporter")
                .withImage("nvcr.io/nvidia/k8s/dcgm-exporter")
                .endContainer()
                .endSpec()
                .withNewStatus()
                .withPhase(phase)
                .endStatus()
                .build();
    }

    private static HttpServer exporter() throws Exception {
        byte[] body;
        try (InputStream in = KubernetesDiscoveryIT.class.getResourceAsStream("/dcgm/dcgm-exporter-t4.prom")) {
            body = in.readAllBytes();
        }
        HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        http.createContext("/metrics", exchange -> {
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        http.start();
        return http;
    }
}
