package io.gpuaas.booking.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.RepeatedTest;

class RetryBackoffTest {

    @RepeatedTest(50)
    void shouldWaitLongerBeforeEachRetryUntilTheCapWhenJittered() {
        RetryBackoff backoff = new RetryBackoff(Duration.ofMillis(100), Duration.ofSeconds(3));
        Duration previous = Duration.ZERO;
        for (int retry = 1; retry <= 5; retry++) {
            Duration wait = backoff.delay(retry);
            assertThat(wait).isGreaterThan(previous).isLessThanOrEqualTo(backoff.ceiling(retry));
            previous = wait;
        }
        assertThat(backoff.delay(30)).isLessThanOrEqualTo(Duration.ofSeconds(3));
    }
}
