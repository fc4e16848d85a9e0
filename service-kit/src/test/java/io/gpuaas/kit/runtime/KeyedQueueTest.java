package io.gpuaas.kit.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class KeyedQueueTest {

    private final AtomicLong now = new AtomicLong();
    private final KeyedQueue<String> queue = new KeyedQueue<>(now::get, depth -> {});

    @Test
    void shouldHandOutAKeyOnceWhenItWasAddedManyTimes() throws Exception {
        queue.add("a");
        queue.add("b");
        queue.add("a");
        assertThat(queue.depth()).isEqualTo(2);
        assertThat(queue.take(Duration.ZERO)).isEqualTo("a");
        assertThat(queue.take(Duration.ZERO)).isEqualTo("b");
        assertThat(queue.take(Duration.ZERO)).isNull();
    }

    @Test
    void shouldHoldAKeyAddedWhileInFlightUntilItIsDone() throws Exception {
        queue.add("a");
        assertThat(queue.take(Duration.ZERO)).isEqualTo("a");
        queue.add("a");
        assertThat(queue.take(Duration.ZERO))
                .as("a second worker must not get a key in flight")
                .isNull();
        queue.done("a");
        assertThat(queue.take(Duration.ZERO)).isEqualTo("a");
    }

    @Test
    void shouldHandOutADelayedKeyOnlyWhenItIsDue() throws Exception {
        queue.addAfter("a", Duration.ofSeconds(10));
        assertThat(queue.idle()).isFalse();
        assertThat(queue.take(Duration.ZERO)).isNull();
        now.addAndGet(Duration.ofSeconds(10).toNanos());
        assertThat(queue.take(Duration.ZERO)).isEqualTo("a");
    }

    @Test
    void shouldKeepTheEarlierTimeWhenAKeyIsDelayedTwice() throws Exception {
        queue.addAfter("a", Duration.ofSeconds(1));
        queue.addAfter("a", Duration.ofSeconds(60));
        now.addAndGet(Duration.ofSeconds(1).toNanos());
        assertThat(queue.take(Duration.ZERO)).isEqualTo("a");
        queue.done("a");
        now.addAndGet(Duration.ofSeconds(60).toNanos());
        assertThat(queue.take(Duration.ZERO))
                .as("the later delay was absorbed by the earlier one")
                .isNull();
        assertThat(queue.idle()).isTrue();
    }

    @Test
    void shouldHandOutADelayedKeyAtOnceWhenItIsAddedNow() throws Exception {
        queue.addAfter("a", Duration.ofMinutes(5));
        queue.add("a");
        assertThat(queue.take(Duration.ZERO)).isEqualTo("a");
        queue.done("a");
        now.addAndGet(Duration.ofMinutes(5).toNanos());
        assertThat(queue.take(Duration.ZERO)).as("the delay was cancelled").isNull();
    }

    @Test
    void shouldNotDelayAKeyThatIsPending() throws Exception {
        queue.add("a");
        queue.addAfter("a", Duration.ofMinutes(5));
        assertThat(queue.take(Duration.ZERO)).isEqualTo("a");
        queue.done("a");
        assertThat(queue.idle()).isTrue();
    }
}
