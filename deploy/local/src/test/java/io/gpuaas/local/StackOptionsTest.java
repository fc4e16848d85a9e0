package io.gpuaas.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuaas.local.services.ServiceSpec;
import java.time.Duration;
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
        assertThat(options.selectedServices()).extracting(ServiceSpec::name)
                .containsExactly("booking-service", "quota-projector", "idle-reclaimer", "metrics-gateway");
    }

    @Test
    void shouldApplyFleetTenantPortAndServiceFlagsWhenGiven() {
        StackOptions options = StackOptions.parse("--gpus", "64", "--tenants", "5", "--kafka-port", "0",
                "--only", "metrics-gateway,booking-service", "--idle-seconds", "30");

        assertThat(options.gpus()).isEqualTo(64);
        assertThat(options.tenants()).isEqualTo(5);
        assertThat(options.kafkaPort()).isZero();
        assertThat(options.idle()).isEqualTo(Duration.ofSeconds(30));
        assertThat(options.selectedServices()).extracting(ServiceSpec::name)
                .containsExactly("booking-service", "metrics-gateway");
        assertThat(StackOptions.parse("--no-services").selectedServices()).isEmpty();
    }

    @Test
    void shouldRejectUnknownFlagsServicesAndNumbersWithTheUsageWhenMistyped() {
        assertThatThrownBy(() -> StackOptions.parse("--gpu", "4")).hasMessageContaining("unknown option --gpu")
                .hasMessageContaining("usage: deploy/local/up");
        assertThatThrownBy(() -> StackOptions.parse("--only", "billing")).hasMessageContaining("unknown service billing");
        assertThatThrownBy(() -> StackOptions.parse("--gpus", "many")).hasMessageContaining("--gpus needs a non-negative");
        assertThatThrownBy(() -> StackOptions.parse("--gpus")).hasMessageContaining("missing value for --gpus");
    }
}
