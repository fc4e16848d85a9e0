package io.gpuaas.reclaim.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ActionRateLimiterTest {

    @Test
    void shouldRefuseActionsOverTheCapUntilTheMinuteHasPassed() {
        AtomicLong now = new AtomicLong(1_000_000);
        ActionRateLimiter limiter = new ActionRateLimiter(2, now::get);

        assertThat(limiter.tryAcquire()).isTrue();
        now.addAndGet(10_000);
        assertThat(limiter.tryAcquire()).isTrue();
        assertThat(limiter.tryAcquire()).isFalse();

        now.addAndGet(50_000);
        assertThat(limiter.tryAcquire()).isTrue();
        assertThat(limiter.tryAcquire()).isFalse();
    }
}
