package io.gpuaas.bench.mig;

import static io.gpuaas.bench.mig.StaticFleetTest.ask;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.booking.model.BookingPolicy;
import io.gpuaas.booking.model.BookingPolicy.Violation;
import io.gpuaas.booking.model.Rejection;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** The `policy` replay: a pod longer than booking-service's max-duration is asked, refused everywhere, never held. */
class MaxDurationTest {

    private static final MaxDuration TEN_SECONDS = new MaxDuration(Duration.ofSeconds(10));

    /** One fleet of each kind the replay compares, with one whole GPU. */
    private static final List<Supplier<Fleet>> ONE_GPU = List.of(
            () -> new StaticFleet(List.of(StaticGpu.WHOLE), List.of(1)),
            () -> new FlexibleFleet(OpenbAsksTest.H200, 1, true));

    /** A pod over the limit on the only GPU, then a short one that overlaps it. */
    private static final List<Ask> LONG_THEN_SHORT =
            List.of(ask("long", Ask.WHOLE, 1, 0, 3_600 + 11), ask("short", Ask.WHOLE, 1, 3_600, 3_600 + 9));

    @Test
    void shouldCountTheLongPodAsAskedAndAcceptedNowhereWhenItIsLongerThanMaxDuration() {
        Ask fourMig = ask("long-4g", "4g.71gb", 1, 0, 11);
        List<Fleet> fleets = List.of(
                new StaticFleet(List.of(StaticGpu.WHOLE), List.of(1)),
                new StaticFleet(List.of(StaticGpu.FOUR_3G), List.of(1)),
                new FlexibleFleet(OpenbAsksTest.H200, 1, true));

        for (Fleet fleet : fleets) {
            boolean[] ok = Replay.run(fleet, List.of(fourMig), TEN_SECONDS);
            Replay.Tally tally = Replay.tally(List.of(fourMig), ok, 0, 100, null, 7);

            assertThat(ok).containsExactly(false);
            assertThat(tally.asks()).isEqualTo(1);
            assertThat(tally.askedHours()).isEqualTo(fourMig.gpuHours(7));
            assertThat(tally.percent()).isZero();
        }
    }

    @Test
    void shouldLeaveTheGpuToALaterPodWhenTheLongPodIsRefused() {
        for (Supplier<Fleet> fleet : ONE_GPU) {
            assertThat(Replay.run(fleet.get(), LONG_THEN_SHORT, MaxDuration.NONE))
                    .as("held for its whole window, the long pod keeps the later one out")
                    .containsExactly(true, false);
            assertThat(Replay.run(fleet.get(), LONG_THEN_SHORT, new MaxDuration(Duration.ofHours(1))))
                    .as("refused, it holds nothing")
                    .containsExactly(false, true);
        }
    }

    @Test
    void shouldAcceptAPodExactlyAsLongAsMaxDuration() {
        assertThat(TEN_SECONDS.refuses(ask("ten", Ask.WHOLE, 1, 5, 15))).isFalse();
        assertThat(TEN_SECONDS.refuses(ask("eleven", Ask.WHOLE, 1, 5, 16))).isTrue();
    }

    @Test
    void shouldRefuseExactlyTheDurationsBookingServiceRefusesWhenReadingItsDefault() {
        MaxDuration shipped = MaxDuration.shipped();
        long limit = shipped.limit().toSeconds();

        assertThat(shipped.limit())
                .isEqualTo(BookingPolicy.DEFAULT.maxDuration())
                .isEqualTo(Duration.ofDays(14));
        assertThat(shipped.describe()).isEqualTo("14 days");
        for (long length : List.of(limit - 1, limit, limit + 1)) {
            Ask pod = ask("p", Ask.WHOLE, 1, 0, length);
            assertThat(shipped.refuses(pod))
                    .as("%d s", length)
                    .isEqualTo(BookingPolicy.DEFAULT
                            .checkDuration(Duration.ofSeconds(length))
                            .map(Violation::rule)
                            .filter(Rejection.POLICY_MAX_DURATION::equals)
                            .isPresent());
        }
    }

    @Test
    void shouldNotLetAnExtensionOutgrowMaxDurationWhenTheBookingKeepsItsStart() {
        BookingPolicy policy = BookingPolicy.DEFAULT;
        Instant start = Instant.parse("2030-01-01T14:00:00Z");
        Instant dayTwelve = start.plus(Duration.ofDays(12));

        assertThat(policy.checkMove(start, 1, start, start.plus(Duration.ofDays(14)), dayTwelve))
                .isEmpty();
        assertThat(policy.checkMove(start, 1, start, start.plus(Duration.ofDays(15)), dayTwelve))
                .map(Violation::rule)
                .hasValue(Rejection.POLICY_MAX_DURATION);
    }
}
