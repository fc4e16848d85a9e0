package io.gpuaas.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.gpuaas.events.Labels;
import io.gpuaas.events.Topics;
import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.events.gpu.GpuScrapeEvent;
import io.gpuaas.testing.k8s.KubernetesApi;
import io.gpuaas.testing.k8s.KubernetesApiExtension;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import io.micronaut.context.ApplicationContext;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;

/**
 * The gateway with Kubernetes enabled, as deployed: service-kit's client bean built from a kubeconfig (here the
 * in-memory API server's), exporters found only through pod discovery (no configured target), tenants only
 * through Namespace labels (no configured mapping), and a real broker.
 */
@ExtendWith({KafkaBrokerExtension.class, KubernetesApiExtension.class})
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KubernetesEnabledGatewayIT {

    private static final String H100 = "NVIDIA H100 80GB HBM3";
    /** The node the exporter pod runs on; its scrape's Hostname label names another. */
    private static final String NODE = "h100-node-7";
    /** The namespace the h100x8 scrape attributes GPU 0 to (a vLLM pod). */
    private static final String WORKLOAD_NAMESPACE = "dynamo-workload";

    private static GatewayHarness gateway;
    private static KubernetesClient api;

    @BeforeAll
    static void start(KafkaBroker broker, KubernetesApi kubernetes) throws Exception {
        api = kubernetes.client();
        // fabric8 reads the system property "kubeconfig" as it reads env KUBECONFIG (what the local stack passes).
        System.setProperty(
                Config.KUBERNETES_KUBECONFIG_FILE,
                kubernetes
                        .writeKubeconfig(Files.createTempFile("kubeconfig", ".yaml"))
                        .toString());
        gateway = new GatewayHarness(
                broker,
                "/dcgm/dcgm-exporter-h100x8.prom",
                exporterPort -> Map.of(
                        "gpuaas.metrics-gateway.kubernetes.enabled",
                        true,
                        "gpuaas.metrics-gateway.scrape.targets",
                        "",
                        "gpuaas.metrics-gateway.scrape.discovery-port",
                        exporterPort));
    }

    @AfterAll
    static void stop() {
        System.clearProperty(Config.KUBERNETES_KUBECONFIG_FILE);
        if (gateway != null) {
            gateway.close();
        }
    }

    @Test
    void shouldReportKubernetesWatchingOnReadinessWhenKubernetesIsEnabled() {
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            HttpResponse<String> ready =
                    gateway.get("/health/readiness", GatewayHarness.token("ops", List.of(), List.of("metrics")), null);
            assertThat(ready.statusCode()).isEqualTo(200);
            assertThat(ready.body())
                    .contains(
                            "\"tenant-namespaces\":{",
                            "\"exporter-discovery\":{",
                            "\"state-feed\":{",
                            "\"sample-feed\":{",
                            "\"scrape-scheduler\":{",
                            "\"detail\":\"watching [");
        });
    }

    @Test
    void shouldPublishTheExporterPodsScrapeUnderItsNodeWhenDiscoveryFindsItRunning() {
        runningExporterPod();

        List<ConsumerRecord<byte[], GpuScrapeEvent>> records = gateway.consumeMatching(
                Topics.GPU_SAMPLES.name(gateway.prefix),
                Topics.GPU_SAMPLES.valueSerde().deserializer(),
                r -> r.value() instanceof GpuScrape s
                        && s.devices().stream().anyMatch(d -> H100.equals(d.modelName())));

        // The exporter's Hostname label says gpu-node-1; the pod runs on NODE, and the node the API server knows wins.
        Set<String> keys = records.stream().map(r -> new String(r.key())).collect(Collectors.toSet());
        assertThat(keys).containsOnly(NODE);
        assertThat(records).anySatisfy(r -> assertThat(r.value()).isInstanceOfSatisfying(GpuScrape.class, s -> {
            assertThat(s.devices()).hasSize(8).allSatisfy(d -> {
                assertThat(s.deviceKey(d)).startsWith(NODE + "/GPU-");
                assertThat(d.hostnameLabel()).isEqualTo("gpu-node-1");
            });
            assertThat(s.devices())
                    .filteredOn(GpuScrape.Device::attributed)
                    .singleElement()
                    .satisfies(d -> {
                        assertThat(d.namespace()).isEqualTo(WORKLOAD_NAMESPACE);
                        assertThat(d.pod()).isEqualTo("vllm-agg-0-vllmdecodeworker-s65j5");
                    });
        }));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(gateway.metrics())
                .contains("gpuaas_scrape_up{target=\"127.0.0.1:"
                        + gateway.exporter.getAddress().getPort() + "\"} 1.0"));
    }

    @Test
    void shouldChargeTheTenantOfTheNamespaceLabelWhenItsPodHoldsAScrapedGpu() {
        runningExporterPod();
        labelWorkloadNamespace("team-a");

        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertThat(gateway.metrics())
                .contains("gpuaas_tenant_gpu_allocated{tenant=\"team-a\"} 1.0"));

        // The label is followed, not read once: the next samples of the GPU go to the new owner.
        labelWorkloadNamespace("team-b");
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertThat(gateway.metrics())
                .contains(
                        "gpuaas_tenant_gpu_allocated{tenant=\"team-b\"} 1.0",
                        "gpuaas_tenant_gpu_allocated{tenant=\"team-a\"} 0.0"));
    }

    @Test
    @Order(Integer.MAX_VALUE)
    void shouldStopScrapingAndCloseTheKubernetesClientWithoutErrorsWhenTheContextStops() {
        runningExporterPod();
        await().atMost(Duration.ofSeconds(10)).until(() -> gateway.exporterScrapes.get() > 0);
        ApplicationContext context = gateway.server.getApplicationContext();
        KubernetesClient client = context.getBean(KubernetesClient.class);
        assertThat(client.getMasterUrl().getPort())
                .as("the kit's client, from the kubeconfig")
                .isEqualTo(api.getMasterUrl().getPort());
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        root.addAppender(logged);
        try {
            assertThatCode(gateway.server::close).doesNotThrowAnyException();
        } finally {
            root.detachAppender(logged);
        }

        assertThat(context.isRunning()).isFalse();
        assertThat(client.getHttpClient().isClosed()).isTrue();
        // Discovery and scraping end first, the projections and the watchers they read last (StartOrder).
        assertThat(logged.list)
                .extracting(ILoggingEvent::getFormattedMessage)
                .containsSubsequence(
                        "stopped exporter-discovery",
                        "stopped scrape-scheduler",
                        "stopped tenant-rollups",
                        "stopped state-feed",
                        "stopped tenant-namespaces");
        assertThat(logged.list)
                .filteredOn(e -> e.getLevel().isGreaterOrEqual(Level.WARN))
                .extracting(e -> e.getLoggerName() + ": " + e.getFormattedMessage())
                .isEmpty();
        int scrapes = gateway.exporterScrapes.get();
        await().during(Duration.ofSeconds(1))
                .atMost(Duration.ofSeconds(2))
                .until(() -> gateway.exporterScrapes.get() == scrapes);
    }

    /** A dcgm-exporter pod as the GPU operator deploys it, Running with an IP on which the fake exporter listens. */
    private static void runningExporterPod() {
        api.pods()
                .inNamespace("gpu-operator")
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName("nvidia-dcgm-exporter-x7k2p")
                        .withNamespace("gpu-operator")
                        .addToLabels("app.kubernetes.io/name", "dcgm-exporter")
                        .endMetadata()
                        .withNewSpec()
                        .withNodeName(NODE)
                        .addNewContainer()
                        .withName("nvidia-dcgm-exporter")
                        .withImage("nvcr.io/nvidia/k8s/dcgm-exporter")
                        .endContainer()
                        .endSpec()
                        .withNewStatus()
                        .withPhase("Running")
                        .withPodIP("127.0.0.1")
                        .endStatus()
                        .build())
                .createOr(NonDeletingOperation::update);
    }

    private static void labelWorkloadNamespace(String tenant) {
        api.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(WORKLOAD_NAMESPACE)
                        .addToLabels(Labels.TENANT, tenant)
                        .endMetadata()
                        .build())
                .createOr(NonDeletingOperation::update);
    }
}
