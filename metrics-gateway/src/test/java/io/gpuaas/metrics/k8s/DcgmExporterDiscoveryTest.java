package io.gpuaas.metrics.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.gpuaas.metrics.scrape.ScrapeTarget;
import org.junit.jupiter.api.Test;

class DcgmExporterDiscoveryTest {

    @Test
    void shouldScrapeTheRunningExporterPodOnItsIpWhenItIsReady() {
        ScrapeTarget target = DcgmExporterDiscovery.targetOf(pod("Running", "10.1.2.3"), 9400, "/metrics");

        assertThat(target.url()).hasToString("http://10.1.2.3:9400/metrics");
        assertThat(target.nodeName()).isEqualTo("gpu-node-7");
        assertThat(target.endpoint().node())
                .as("the node names every device scraped there")
                .isEqualTo("gpu-node-7");
        assertThat(target.label()).isEqualTo("10.1.2.3:9400");
    }

    @Test
    void shouldBracketIpv6AddressesWhenBuildingTheUrl() {
        assertThat(DcgmExporterDiscovery.targetOf(pod("Running", "fd00::12"), 9400, "/metrics")
                        .url())
                .hasToString("http://[fd00::12]:9400/metrics");
    }

    @Test
    void shouldSkipThePodWhenItIsPendingOrHasNoIp() {
        assertThat(DcgmExporterDiscovery.targetOf(pod("Pending", "10.1.2.3"), 9400, "/metrics"))
                .isNull();
        assertThat(DcgmExporterDiscovery.targetOf(pod("Running", null), 9400, "/metrics"))
                .isNull();
    }

    private static Pod pod(String phase, String ip) {
        return new PodBuilder()
                .withNewMetadata()
                .withName("dcgm-exporter-x")
                .withNamespace("gpu-operator")
                .endMetadata()
                .withNewSpec()
                .withNodeName("gpu-node-7")
                .endSpec()
                .withNewStatus()
                .withPhase(phase)
                .withPodIP(ip)
                .endStatus()
                .build();
    }
}
