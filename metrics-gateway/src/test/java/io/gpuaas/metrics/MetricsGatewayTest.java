package io.gpuaas.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.kit.config.KafkaSettings;
import io.gpuaas.kit.k8s.LeaseSettings;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.kit.runtime.ServiceComponent;
import io.gpuaas.metrics.config.KubernetesSettings;
import io.gpuaas.metrics.config.LedgerSettings;
import io.gpuaas.metrics.config.ProjectionSettings;
import io.gpuaas.metrics.config.RemoteWriteSettings;
import io.gpuaas.metrics.config.ScrapeSettings;
import io.gpuaas.metrics.config.UnderuseSettings;
import io.gpuaas.metrics.config.UsageSettings;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The composition root decides from settings which parts the gateway runs, in which start order, and asks for a
 * Kubernetes client only when it watches Kubernetes. Built without the container and never started: the clients are
 * created (they connect lazily) and closed again.
 */
class MetricsGatewayTest {

    private static final PoolCatalog POOLS = PoolCatalog.load(Optional.empty());

    private final KafkaClients kafka = new KafkaClients(new KafkaSettings("127.0.0.1:1", "gpuaas.", Map.of()));
    private final AtomicInteger clientsAsked = new AtomicInteger();
    private final List<AutoCloseable> opened = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable closeable : opened.reversed()) {
            closeable.close();
        }
        kafka.close();
    }

    @Test
    void shouldRunFeedsPublishersAndScrapesButAskForNoClientWhenKubernetesIsOff() {
        MetricsGateway gateway = build(settings(false, true, true, true, true));

        assertThat(names(gateway))
                .containsExactly(
                        "state-feed",
                        "sample-feed",
                        "ledger-feed",
                        "tenant-rollups",
                        "usage-ledger",
                        "underuse-notices",
                        "scrape-scheduler",
                        "gateway-leadership");
        assertThat(clientsAsked).hasValue(0);
        assertThat(gateway.remoteWrite()).isPresent();
    }

    @Test
    void shouldWatchNamespacesAndDiscoverExportersInStartOrderWhenKubernetesIsOn() {
        MetricsGateway gateway = build(settings(true, true, true, true, true));

        assertThat(names(gateway))
                .containsExactly(
                        "tenant-namespaces",
                        "state-feed",
                        "sample-feed",
                        "ledger-feed",
                        "tenant-rollups",
                        "usage-ledger",
                        "underuse-notices",
                        "scrape-scheduler",
                        "gateway-leadership",
                        "exporter-discovery");
        assertThat(clientsAsked).hasValue(1);
    }

    @Test
    void shouldLeaveOutWhatIsTurnedOffWhenDiscoveryRollupsLedgerRecordsAndRemoteWriteAreOff() {
        MetricsGateway gateway = build(settings(true, false, false, false, false));

        assertThat(names(gateway))
                .containsExactly(
                        "tenant-namespaces",
                        "state-feed",
                        "sample-feed",
                        "ledger-feed",
                        "underuse-notices",
                        "scrape-scheduler",
                        "gateway-leadership");
        assertThat(gateway.remoteWrite()).isEmpty();
    }

    @Test
    void shouldRefuseToBuildWhenTheLedgerCutLagIsShorterThanTheLongestChargedGap() {
        MetricsGateway.Settings valid = settings(false, false, true, true, true);
        LedgerSettings ledger = valid.ledger();
        MetricsGateway.Settings shortLag = new MetricsGateway.Settings(
                valid.scrape(),
                valid.kubernetes(),
                valid.usage(),
                new LedgerSettings(
                        ledger.publish(),
                        ledger.publishInterval(),
                        ledger.maxRangeDays(),
                        ledger.refresh(),
                        ledger.sealAfter(),
                        Duration.ofSeconds(10)),
                valid.projections(),
                valid.election(),
                valid.remoteWrite(),
                valid.underuse());

        assertThatThrownBy(() -> build(shortLag))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ledger.cut-lag")
                .hasMessageContaining("usage.max-gap");
    }

    private MetricsGateway build(MetricsGateway.Settings settings) {
        Supplier<KubernetesClient> client = () -> {
            clientsAsked.incrementAndGet();
            KubernetesClient unreachable = new KubernetesClientBuilder()
                    .withConfig(new ConfigBuilder()
                            .withMasterUrl("https://127.0.0.1:1")
                            .withNamespace("gpuaas")
                            .build())
                    .withHttpClientFactory(new JdkHttpClientFactory())
                    .build();
            opened.add(unreachable);
            return unreachable;
        };
        MetricsGateway gateway = new MetricsGateway(
                settings, kafka, client, POOLS, new PrometheusRegistry(), MetricsGateway.Options.defaults());
        opened.add(gateway);
        // Never started: stopping ends what building opened (the publishers' producers), as the lifecycle would.
        opened.add(() -> gateway.components().reversed().forEach(c -> c.stop(Duration.ofSeconds(1))));
        return gateway;
    }

    /** The components in the order the lifecycle starts them (by start order, equal orders as listed). */
    private static List<String> names(MetricsGateway gateway) {
        return gateway.components().stream()
                .sorted(Comparator.comparingInt(ServiceComponent::startOrder))
                .map(ServiceComponent::name)
                .toList();
    }

    private static MetricsGateway.Settings settings(
            boolean kubernetes, boolean discovery, boolean rollups, boolean ledgerRecords, boolean remoteWrite) {
        return new MetricsGateway.Settings(
                new ScrapeSettings(
                        List.of("node-a=http://127.0.0.1:1/metrics"),
                        Duration.ofSeconds(5),
                        Duration.ofSeconds(3),
                        Duration.ofSeconds(60),
                        discovery,
                        "app.kubernetes.io/name=dcgm-exporter",
                        null,
                        9400,
                        "/metrics"),
                new KubernetesSettings(kubernetes, "gpuaas.io/tenant"),
                new UsageSettings(
                        0.01, Duration.ofSeconds(30), Duration.ofSeconds(30), Duration.ofMinutes(1), rollups, null),
                new LedgerSettings(
                        ledgerRecords,
                        Duration.ofSeconds(60),
                        366,
                        Duration.ofSeconds(5),
                        Duration.ofHours(1),
                        Duration.ofMinutes(5)),
                ProjectionSettings.defaults(),
                new LeaseSettings(
                        true,
                        "gpuaas-metrics-gateway",
                        "gpuaas",
                        "test",
                        Duration.ofSeconds(15),
                        Duration.ofSeconds(10),
                        Duration.ofSeconds(2)),
                new RemoteWriteSettings(remoteWrite, "metrics-writer", null, false, 16 << 20, Duration.ofSeconds(10)),
                UnderuseSettings.defaults());
    }
}
