package io.gpuaas.booking.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.booking.Interval;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class PoolTimelineTest {

    private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

    private static Instant h(int hours) {
        return T0.plus(Duration.ofHours(hours));
    }

    @Test
    void shouldStackOverlappingReservationsWhenTheyShareHours() {
        PoolTimeline timeline = new PoolTimeline();
        timeline.reserve(h(0), h(4), 3);
        timeline.reserve(h(2), h(6), 2);

        assertThat(timeline.reservedAt(h(1))).isEqualTo(3);
        assertThat(timeline.reservedAt(h(3))).isEqualTo(5);
        assertThat(timeline.reservedAt(h(5))).isEqualTo(2);
        assertThat(timeline.reservedAt(h(6))).isZero();
        assertThat(timeline.maxReserved(h(0), h(2))).isEqualTo(3);
        assertThat(timeline.maxReserved(h(0), h(3))).isEqualTo(5);
    }

    @Test
    void shouldForgetBreakpointsWhenReservationsAreReleased() {
        PoolTimeline timeline = new PoolTimeline();
        timeline.reserve(h(0), h(4), 3);
        timeline.reserve(h(4), h(8), 3);

        assertThat(timeline.breakpoints()).isEqualTo(2);
        timeline.release(h(0), h(4), 3);
        timeline.release(h(4), h(8), 3);
        assertThat(timeline.isEmpty()).isTrue();
    }

    @Test
    void shouldNameOnlyTheShortIntervalsWhenAskedForConflicts() {
        PoolTimeline timeline = new PoolTimeline();
        timeline.reserve(h(1), h(2), 6);
        timeline.reserve(h(2), h(3), 7);
        timeline.reserve(h(5), h(6), 8);

        assertThat(timeline.above(h(0), h(10), 5))
                .containsExactly(new Interval(h(1), h(3), 7), new Interval(h(5), h(6), 8));
    }

    @Test
    void shouldFindTheFirstGapLongEnoughWhenSearchingForAnEarliestStart() {
        PoolTimeline timeline = new PoolTimeline();
        timeline.reserve(h(0), h(2), 8);
        timeline.reserve(h(3), h(5), 8);

        assertThat(timeline.earliestFit(h(0), Duration.ofHours(1), 0, Duration.ofMinutes(15), h(100)))
                .contains(h(2));
        assertThat(timeline.earliestFit(h(0), Duration.ofHours(2), 0, Duration.ofMinutes(15), h(100)))
                .contains(h(5));
        assertThat(timeline.earliestFit(h(0), Duration.ofHours(2), 0, Duration.ofMinutes(15), h(4)))
                .isEmpty();
    }

    @Test
    void shouldAlignTheEarliestStartWhenTheSearchBeginsMidSlot() {
        PoolTimeline timeline = new PoolTimeline();

        assertThat(timeline.earliestFit(h(0).plusSeconds(61), Duration.ofHours(1), 4, Duration.ofMinutes(15), h(10)))
                .contains(h(0).plus(Duration.ofMinutes(15)));
    }
}
