package io.gpuaas.booking.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class BookingPolicyTest {

    private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");
    private final BookingPolicy policy = BookingPolicy.DEFAULT;

    @Test
    void shouldCountAWindowOffTheAlignmentByANanosecondAsUnaligned() {
        Instant noon = Instant.parse("2030-01-02T12:00:00Z");

        assertThat(policy.isAligned(noon)).isTrue();
        assertThat(policy.isAligned(Instant.parse("2030-01-02T12:00:00.000000999Z")))
                .isFalse();
        assertThat(policy.isAligned(Instant.parse("1969-12-31T23:45:00Z")))
                .as("before the epoch")
                .isTrue();
        assertThat(policy.checkShape(noon.plusNanos(1), noon.plusSeconds(3600), NOW))
                .hasValueSatisfying(v -> assertThat(v.rule()).isEqualTo(Rejection.POLICY_ALIGNMENT));
    }

    @Test
    void shouldLetAMoveKeepAPastStartButCheckAMovedStartLikeANewBooking() {
        Instant past = NOW.minus(Duration.ofHours(2));

        assertThat(policy.checkMove(past, 1, past, NOW.plus(Duration.ofHours(1)), NOW))
                .isEmpty();
        assertThat(policy.checkMove(past, 1, past.plus(Duration.ofMinutes(15)), NOW.plus(Duration.ofHours(1)), NOW))
                .hasValueSatisfying(v -> assertThat(v.rule()).isEqualTo(Rejection.START_IN_PAST));
        assertThat(policy.checkMove(past, 1, past, NOW.plus(Duration.ofDays(100)), NOW))
                .hasValueSatisfying(v -> assertThat(v.rule()).isEqualTo(Rejection.POLICY_MAX_DURATION));
        assertThat(policy.checkMove(past, 1, past, past, NOW))
                .hasValueSatisfying(v -> assertThat(v.rule()).isEqualTo(Rejection.INVALID_WINDOW));
    }
}
