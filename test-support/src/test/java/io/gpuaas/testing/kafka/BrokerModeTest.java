package io.gpuaas.testing.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class BrokerModeTest {

    @AfterEach
    void clear() {
        System.clearProperty(BrokerMode.PROPERTY);
    }

    @Test
    void shouldUseEmbeddedWhenForcedBySystemProperty() {
        System.setProperty(BrokerMode.PROPERTY, "Embedded");

        assertThat(BrokerMode.configured().resolve()).isEqualTo(BrokerMode.EMBEDDED);
    }

    @Test
    void shouldDecideQuicklyWhenNoDockerDaemonAnswers() {
        System.setProperty(BrokerMode.PROPERTY, "auto");
        long start = System.nanoTime();

        BrokerMode resolved = BrokerMode.configured().resolve();

        assertThat(resolved).isIn(BrokerMode.EMBEDDED, BrokerMode.CONTAINER);
        assertThat((System.nanoTime() - start) / 1_000_000).as("ms to decide").isLessThan(3_000);
    }

    @Test
    void shouldNameTheValidChoicesWhenModeIsUnknown() {
        System.setProperty(BrokerMode.PROPERTY, "docker");

        assertThatThrownBy(BrokerMode::configured).hasMessageContaining("embedded, container or auto");
    }
}
