package io.gpuaas.metrics.scrape;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackoffTest {

    private final Backoff backoff = new Backoff(Duration.ofSeconds(5), Duration.ofSeconds(60));

    @Test
    void shouldKeepTheIntervalWhenTheScrapeTookPartOfIt() {
        assertThat(backoff.afterSuccess(Duration.ofMillis(1_200))).isEqualTo(Duration.ofMillis(3_800));
        assertThat(backoff.afterSuccess(Duration.ofSeconds(7))).isZero();
    }

    @Test
    void shouldDoubleTheWaitUpToTheCapWhenFailuresRepeat() {
        assertThat(backoff.afterFailures(1)).isEqualTo(Duration.ofSeconds(10));
        assertThat(backoff.afterFailures(2)).isEqualTo(Duration.ofSeconds(20));
        assertThat(backoff.afterFailures(3)).isEqualTo(Duration.ofSeconds(40));
        assertThat(backoff.afterFailures(4)).isEqualTo(Duration.ofSeconds(60));
        assertThat(backoff.afterFailures(400)).isEqualTo(Duration.ofSeconds(60));
    }
}
