package io.gpuaas.booking.model;

import static io.gpuaas.booking.model.Fixtures.NOW;
import static io.gpuaas.booking.model.Fixtures.TEAM_A;
import static io.gpuaas.booking.model.Fixtures.TEAM_B;
import static io.gpuaas.booking.model.Fixtures.h;
import static io.gpuaas.booking.model.FlexibleFixtures.FLEX;
import static io.gpuaas.booking.model.FlexibleFixtures.ONE_GPU;
import static io.gpuaas.booking.model.FlexibleFixtures.POOLS;
import static io.gpuaas.booking.model.FlexibleFixtures.change;
import static io.gpuaas.booking.model.FlexibleFixtures.create;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingCommand;
import io.gpuaas.events.booking.BookingCommand.CancelBooking;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.BookingEvent.BookingConfirmed;
import io.gpuaas.events.booking.BookingEvent.BookingMoved;
import io.gpuaas.events.booking.BookingEvent.BookingRejected;
import io.gpuaas.events.booking.Interval;
import io.gpuaas.events.booking.PlacedUnit;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The decider on flexible pools: where units go, what is refused, and how a move is published. */
class FlexibleDeciderTest {

    private final BookingDecider decider = new BookingDecider(POOLS, BookingPolicy.DEFAULT);
    private final BookingLedger ledger = new BookingLedger(new InMemoryBookingRepository(), POOLS);

    private Decision decide(BookingCommand command) {
        Decision decision = decider.decide(command, ledger, NOW);
        ledger.apply(decision);
        return decision;
    }

    private Booking confirmed(Decision decision) {
        assertThat(decision.events()).last().isInstanceOf(BookingConfirmed.class);
        return ((BookingConfirmed) decision.events().getLast()).booking();
    }

    private static BookingRejected rejected(Decision decision) {
        assertThat(decision.events()).singleElement().isInstanceOf(BookingRejected.class);
        return (BookingRejected) decision.events().getFirst();
    }

    @Test
    void shouldPackA3gAndFour1gOnOneGpuWhenMixedProfilesShareAWindow() {
        Booking three = confirmed(decide(create(FLEX, "three", TEAM_A, "3g.71gb", 1, h(1), h(3))));
        Booking ones = confirmed(decide(create(FLEX, "ones", TEAM_B, "1g.18gb", 4, h(1), h(3))));

        assertThat(three.resource()).isEqualTo("nvidia.com/mig-3g.71gb");
        assertThat(three.flavor()).isEqualTo("h200-flex");
        assertThat(ones.resource()).isEqualTo("nvidia.com/mig-1g.18gb");
        assertThat(three.placement()).containsExactly(PlacedUnit.mig("gpu-node-3", 0, "3g.71gb", 4));
        assertThat(ones.placement())
                .hasSize(4)
                .allSatisfy(u -> {
                    assertThat(u.node()).isEqualTo("gpu-node-3");
                    assertThat(u.gpu()).isZero();
                    assertThat(u.profile()).isEqualTo("1g.18gb");
                    assertThat(u.start()).isLessThan(4);
                })
                .extracting(PlacedUnit::start)
                .doesNotHaveDuplicates();
    }

    @Test
    void shouldBookWholeGpusWithoutAProfile() {
        Booking whole = confirmed(decide(create(FLEX, "whole", TEAM_A, null, 2, h(1), h(2))));

        assertThat(whole.resource()).isEqualTo("nvidia.com/gpu");
        assertThat(whole.placement())
                .containsExactly(PlacedUnit.wholeGpu("gpu-node-3", 0), PlacedUnit.wholeGpu("gpu-node-3", 1));
    }

    @Test
    void shouldRefuseAWholeGpuAsCapacityWhenEveryGpuHoldsMig() {
        decide(create(FLEX, "four-a", TEAM_A, "4g.71gb", 1, h(1), h(3)));
        decide(create(FLEX, "four-b", TEAM_A, "1g.18gb", 1, h(2), h(4)));
        decide(create(FLEX, "four-c", TEAM_A, "4g.71gb", 1, h(1), h(3)));

        BookingRejected no = rejected(decide(create(FLEX, "whole", TEAM_B, null, 1, h(1), h(2))));

        assertThat(no.reason()).isEqualTo("CAPACITY");
        assertThat(no.conflicts()).containsExactly(new Interval(h(1), h(2), 2));
        assertThat(no.earliestStart()).isEqualTo(h(3));
        assertThat(ledger.booking("whole")).isEmpty();
    }

    @Test
    void shouldPublishTheMoveBeforeTheConfirmationWhenAFutureBookingMovesToMakeRoom() {
        decide(create(ONE_GPU, "four", TEAM_A, "4g.71gb", 1, h(0), h(1)));
        Booking three = confirmed(decide(create(ONE_GPU, "three", TEAM_B, "3g.71gb", 1, h(1), h(2))));
        assertThat(three.placement()).containsExactly(PlacedUnit.mig("gpu-node-5", 0, "3g.71gb", 4));

        Decision decision = decide(create(ONE_GPU, "across", TEAM_A, "3g.71gb", 1, h(0), h(2)));

        assertThat(decision.events())
                .extracting(e -> e.getClass().getSimpleName())
                .containsExactly("BookingMoved", "BookingConfirmed", "BookingActivated");
        BookingMoved moved = (BookingMoved) decision.events().getFirst();
        assertThat(moved.requestId()).isNull();
        assertThat(moved.forBooking()).isEqualTo("across");
        assertThat(moved.previousPlacement()).containsExactly(PlacedUnit.mig("gpu-node-5", 0, "3g.71gb", 4));
        assertThat(moved.booking().placement()).containsExactly(PlacedUnit.mig("gpu-node-5", 0, "3g.71gb", 0));
        assertThat(moved.booking().version()).isEqualTo(2);
        assertThat(decision.changes()).first().isEqualTo(moved.booking());
        assertThat(ledger.booking("three")).contains(moved.booking());
        assertThat(((BookingEvent.BookingActivated) decision.events().getLast())
                        .booking()
                        .placement())
                .containsExactly(PlacedUnit.mig("gpu-node-5", 0, "3g.71gb", 4));
    }

    @Test
    void shouldMoveOnlyABookingThatHasNotStarted() {
        decide(create(ONE_GPU, "three", TEAM_B, "3g.71gb", 1, h(1), h(3)));
        decide(create(ONE_GPU, "four", TEAM_A, "4g.71gb", 1, h(3), h(4)));
        BookingCommand across = create(ONE_GPU, "across", TEAM_A, "3g.71gb", 1, h(2), h(4));

        Decision before = decider.decide(across, ledger, NOW);
        Decision after = decider.decide(across, ledger, h(1).plusSeconds(60));

        assertThat(before.events()).first().isInstanceOf(BookingMoved.class);
        assertThat(((BookingMoved) before.events().getFirst()).bookingId()).isEqualTo("three");
        assertThat(rejected(after).reason()).isEqualTo("CAPACITY");
        assertThat(rejected(after).message()).contains("FRAGMENTED");
    }

    @Test
    void shouldRefuseAProfileThePoolDoesNotBookNamingTheAllowedOnes() {
        BookingRejected flex = rejected(decide(create(FLEX, "x", TEAM_A, "5g.99gb", 1, h(1), h(2))));
        BookingRejected fixed = rejected(decide(create("h200-mig-2g.35gb", "y", TEAM_A, "3g.71gb", 1, h(1), h(2))));

        assertThat(flex.reason()).isEqualTo("INVALID_PROFILE");
        assertThat(flex.message()).contains("1g.18gb", "3g.71gb", "7g.141gb");
        assertThat(fixed.reason()).isEqualTo("INVALID_PROFILE");
        assertThat(fixed.message()).contains("2g.35gb");
        assertThat(confirmed(decide(create("h200-mig-2g.35gb", "z", TEAM_A, "2g.35gb", 1, h(1), h(2))))
                        .placement())
                .isNull();
    }

    @Test
    void shouldAllowAsManyUnitsAsTheGpusHoldOfTheProfile() {
        assertThat(confirmed(decide(create(FLEX, "fourteen", TEAM_A, "1g.18gb", 14, h(1), h(2))))
                        .placement())
                .hasSize(14);
        assertThat(rejected(decide(create(FLEX, "fifteen", TEAM_A, "1g.18gb", 15, h(3), h(4))))
                        .reason())
                .isEqualTo("INVALID_QUANTITY");
    }

    @Test
    void shouldExtendInPlaceOrRefuseAsCapacityWhenTheSliceIsTakenLater() {
        Booking first = confirmed(decide(create(ONE_GPU, "first", TEAM_A, "3g.71gb", 1, h(1), h(2))));
        decide(create(ONE_GPU, "second", TEAM_A, "4g.71gb", 1, h(3), h(4)));

        Decision longer = decide(change(ONE_GPU, "first", TEAM_A, h(1), h(3)));
        assertThat(((BookingEvent.BookingExtended) longer.events().getFirst())
                        .booking()
                        .placement())
                .isEqualTo(first.placement());

        decide(create(ONE_GPU, "third", TEAM_B, null, 1, h(4), h(5)));
        BookingRejected no = rejected(decide(change(ONE_GPU, "first", TEAM_A, h(1), h(5))));
        assertThat(no.reason()).isEqualTo("CAPACITY");
        assertThat(no.conflicts()).singleElement().satisfies(i -> assertThat(i.start())
                .isEqualTo(h(4)));
        assertThat(ledger.booking("first").orElseThrow().end()).isEqualTo(h(3));
    }

    @Test
    void shouldFreeTheUnitsWhenABookingIsCancelled() {
        decide(create(ONE_GPU, "whole", TEAM_A, null, 1, h(1), h(2)));
        assertThat(rejected(decide(create(ONE_GPU, "mig", TEAM_B, "1g.18gb", 1, h(1), h(2))))
                        .reason())
                .isEqualTo("CAPACITY");

        decide(new CancelBooking("cancel", null, TEAM_A, ONE_GPU, "whole", NOW));

        assertThat(confirmed(decide(create(ONE_GPU, "mig-again", TEAM_B, "1g.18gb", 1, h(1), h(2))))
                        .placement())
                .hasSize(1);
    }

    @Test
    void shouldPlaceTheSameWayWhenTheCommandsAreDecidedAgain() {
        List<BookingCommand> commands = List.of(
                create(FLEX, "a", TEAM_A, "2g.35gb", 2, h(1), h(3)),
                create(FLEX, "b", TEAM_B, null, 1, h(2), h(4)),
                create(FLEX, "c", TEAM_A, "1g.18gb", 3, h(0), h(2)),
                create(FLEX, "d", TEAM_B, "3g.71gb", 2, h(1), h(2)));
        List<BookingEvent> first =
                commands.stream().flatMap(c -> decide(c).events().stream()).toList();
        BookingLedger again = new BookingLedger(new InMemoryBookingRepository(), POOLS);
        List<BookingEvent> second = commands.stream()
                .flatMap(c -> {
                    Decision d = decider.decide(c, again, NOW);
                    again.apply(d);
                    return d.events().stream();
                })
                .toList();

        assertThat(second).isEqualTo(first);
    }
}
