package io.gpuaas.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuaas.local.services.ServiceReplica;
import io.gpuaas.local.services.ServiceSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StackOptionsTest {

    @Test
    void shouldUseTheDocumentedPortsAndAllFourServicesWhenNoFlagIsGiven() {
        StackOptions options = StackOptions.parse();

        assertThat(options.gpus()).isEqualTo(16);
        assertThat(options.tenants()).isEqualTo(2);
        assertThat(options.kafkaPort()).isEqualTo(9092);
        assertThat(options.kubePort()).isEqualTo(6443);
        assertThat(options.fleetPort()).isEqualTo(9400);
        assertThat(options.selectedServices())
                .extracting(ServiceSpec::name)
                .containsExactly("booking-service", "quota-projector", "idle-reclaimer", "metrics-gateway");
        assertThat(options.replicas()).isEqualTo(1);
        assertThat(options.selectedReplicas())
                .extracting(ServiceReplica::name)
                .containsExactly("booking-service", "quota-projector", "idle-reclaimer", "metrics-gateway");
    }

    @Test
    void shouldStartEverySelectedServiceTwiceFirstReplicasFirstWhenTwoReplicasAreAsked() {
        StackOptions options = StackOptions.parse("--replicas", "2", "--only", "booking-service,metrics-gateway");

        assertThat(options.selectedReplicas())
                .extracting(ServiceReplica::name)
                .containsExactly("booking-service", "metrics-gateway", "booking-service-2", "metrics-gateway-2");
        assertThatThrownBy(() -> StackOptions.parse("--replicas", "0")).hasMessageContaining("--replicas needs 1..9");
        assertThatThrownBy(() -> StackOptions.parse("--replicas", "10")).hasMessageContaining("--replicas needs 1..9");
    }

    @Test
    void shouldApplyFleetTenantPortAndServiceFlagsWhenGiven() {
        StackOptions options = StackOptions.parse(
                "--gpus",
                "64",
                "--tenants",
                "5",
                "--kafka-port",
                "0",
                "--only",
                "metrics-gateway,booking-service",
                "--idle-seconds",
                "30");

        assertThat(options.gpus()).isEqualTo(64);
        assertThat(options.tenants()).isEqualTo(5);
        assertThat(options.kafkaPort()).isZero();
        assertThat(options.idle()).isEqualTo(Duration.ofSeconds(30));
        assertThat(options.selectedServices())
                .extracting(ServiceSpec::name)
                .containsExactly("booking-service", "metrics-gateway");
        assertThat(StackOptions.parse("--no-services").selectedServices()).isEmpty();
    }

    @Test
    void shouldRejectUnknownFlagsServicesAndNumbersWithTheUsageWhenMistyped() {
        assertThatThrownBy(() -> StackOptions.parse("--gpu", "4"))
                .hasMessageContaining("unknown option --gpu")
                .hasMessageContaining("usage: deploy/local/up");
        assertThatThrownBy(() -> StackOptions.parse("--only", "billing"))
                .hasMessageContaining("unknown service billing");
        assertThatThrownBy(() -> StackOptions.parse("--gpus", "many"))
                .hasMessageContaining("--gpus needs a non-negative");
        assertThatThrownBy(() -> StackOptions.parse("--gpus")).hasMessageContaining("missing value for --gpus");
    }

    @Test
    void shouldHandEachServiceItsOwnOverridesWhenServicePropertiesAreGiven() {
        StackOptions options = StackOptions.parse(
                "--service-property",
                "gpuaas.kafka.topic-prefix=gpuaas.",
                "--service-property",
                "idle-reclaimer:gpuaas.reclaimer.policy.window=20s",
                "--service-property",
                "metrics-gateway:gpuaas.metrics-gateway.scrape.targets=http://a:1/m,http://b:2/m",
                "--service-property",
                "idle-reclaimer:gpuaas.reclaimer.policy.window=25s");

        assertThat(options.propertiesFor("idle-reclaimer"))
                .containsExactly(
                        Map.entry("gpuaas.kafka.topic-prefix", "gpuaas."),
                        Map.entry("gpuaas.reclaimer.policy.window", "25s"));
        assertThat(options.propertiesFor("metrics-gateway"))
                .containsEntry("gpuaas.metrics-gateway.scrape.targets", "http://a:1/m,http://b:2/m");
        assertThat(options.propertiesFor("booking-service")).containsOnlyKeys("gpuaas.kafka.topic-prefix");
        assertThat(StackOptions.parse().serviceProperties()).isEmpty();
    }

    @Test
    void shouldRejectAPropertyForAnUnknownServiceOrWithoutAValueWhenMistyped() {
        assertThatThrownBy(() -> StackOptions.parse("--service-property", "billing:a.b=1"))
                .hasMessageContaining("unknown service billing");
        assertThatThrownBy(() -> StackOptions.parse("--service-property", "gpuaas.booking.alignment"))
                .hasMessageContaining("[service:]key=value");
    }

    @Test
    void shouldSkipDemoWorkloadsAndUseTheGivenRepositoryWhenAsked() {
        StackOptions options =
                StackOptions.parse("--no-demo-workloads", "--repo-root", "/tmp/elsewhere", "--service-port", "0");

        assertThat(options.demoWorkloads()).isFalse();
        assertThat(options.repoRoot()).isEqualTo(Path.of("/tmp/elsewhere"));
        assertThat(options.servicePort()).isZero();
        assertThat(StackOptions.parse().demoWorkloads()).isTrue();
    }

    @Test
    void shouldStartTheFlexiblePoolWithAFewSecondsOfMigDelayUnlessToldOtherwise() {
        StackOptions defaults = StackOptions.parse();
        StackOptions told = StackOptions.parse("--flexible-gpus", "0", "--mig-delay", "0");

        assertThat(defaults.flexibleGpus()).isEqualTo(8);
        assertThat(defaults.migDelay()).isEqualTo(java.time.Duration.ofSeconds(3));
        assertThat(told.flexibleGpus()).isZero();
        assertThat(told.migDelay()).isZero();
        assertThatThrownBy(() -> StackOptions.parse("--mig-delay", "-1"))
                .hasMessageContaining("--mig-delay needs a non-negative whole number");
    }
}
