package io.gpuaas.booking.model;

import static io.gpuaas.booking.model.Fixtures.ADMIN;
import static io.gpuaas.booking.model.Fixtures.TEAM_A;
import static io.gpuaas.booking.model.Fixtures.TEAM_B;
import static io.gpuaas.booking.model.Fixtures.create;
import static io.gpuaas.booking.model.Fixtures.h;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingCommand.KeepWorkload;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.BookingEvent.BookingConfirmed;
import io.gpuaas.events.booking.BookingEvent.BookingRejected;
import io.gpuaas.events.booking.BookingEvent.WorkloadKeepDecided;
import io.gpuaas.events.booking.Caller;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.events.pool.PoolKeep;
import io.gpuaas.events.reclaim.KeepRequested;
import io.gpuaas.events.reclaim.WorkloadRef;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** "Keep it" answers decided by the pool's writer: 8 h per answer and 12 h per booking and UTC day on this pool. */
class KeepDecisionTest {

    private static final PoolCatalog POOLS = new PoolCatalog(
            List.of(new Pool("h200", "h200", "nvidia.com/gpu", 8, "NVIDIA H200", null).withKeep(new PoolKeep(8, 12))));

    private final BookingDecider decider = new BookingDecider(POOLS, BookingPolicy.DEFAULT);
    private final BookingLedger ledger = new BookingLedger(new InMemoryBookingRepository(), POOLS);

    /** A booking of team-a over [h1, h30), activated by the clock at h1. */
    private Booking active() {
        Decision confirmed = decider.decide(create(TEAM_A, null, 1, h(1), h(30)), ledger, Fixtures.NOW);
        ledger.apply(confirmed);
        ledger.apply(decider.advance(ledger, h(1)));
        return ledger.booking(((BookingConfirmed) confirmed.events().getFirst())
                        .booking()
                        .id())
                .orElseThrow();
    }

    private Decision keep(Caller caller, Booking booking, String workload, int hours, Instant at) {
        KeepWorkload command = new KeepWorkload(
                UUID.randomUUID().toString(),
                null,
                caller,
                "h200",
                booking.id(),
                new WorkloadRef(booking.namespace(), "RayCluster", workload),
                hours,
                at,
                null);
        Decision decision = decider.decide(command, ledger, at);
        ledger.apply(decision);
        return decision;
    }

    private static WorkloadKeepDecided answer(Decision decision) {
        return (WorkloadKeepDecided) decision.events().getFirst();
    }

    @Test
    void shouldGrantWithinTheDayAndRefuseWhatPassesItWhenAnswersForTheBookingAddUp() {
        Booking booking = active();

        Decision first = keep(TEAM_A, booking, "ray-1", 8, h(2));
        Decision second = keep(TEAM_A, booking, "ray-2", 8, h(3));
        Decision third = keep(TEAM_A, booking, "ray-2", 4, h(3));

        assertThat(answer(first).granted()).isTrue();
        assertThat(answer(first).hoursToday()).isEqualTo(8);
        assertThat(KeepDecisions.requests(first))
                .singleElement()
                .isEqualTo(new KeepRequested(
                        new WorkloadRef("team-a", "RayCluster", "ray-1"),
                        "team-a",
                        answer(first).requestId(),
                        8,
                        "alice",
                        h(2)));
        assertThat(answer(second))
                .as("another workload of the same booking counts against the same day")
                .satisfies(a -> {
                    assertThat(a.granted()).isFalse();
                    assertThat(a.bound()).isEqualTo(KeepDecisions.PER_BOOKING_DAY);
                    assertThat(a.maxHours()).isEqualTo(12);
                    assertThat(a.hoursLeft()).isEqualTo(4);
                });
        assertThat(KeepDecisions.requests(second)).as("a refusal keeps nothing").isEmpty();
        assertThat(answer(third).granted()).isTrue();
        assertThat(answer(third).hoursLeft()).isZero();
    }

    @Test
    void shouldRefuseBeyondOneAnswerAndStartANewDayFromZero() {
        Booking booking = active();
        keep(TEAM_A, booking, "ray-1", 8, h(2));

        WorkloadKeepDecided tooLong = answer(keep(TEAM_A, booking, "ray-1", 9, h(3)));
        WorkloadKeepDecided nextDay = answer(keep(TEAM_A, booking, "ray-1", 8, h(25)));

        assertThat(tooLong.bound()).isEqualTo(KeepDecisions.PER_ANSWER);
        assertThat(tooLong.maxHours()).isEqualTo(8);
        assertThat(tooLong.hoursLeft()).isEqualTo(4);
        assertThat(nextDay.granted()).isTrue();
        assertThat(nextDay.day())
                .isEqualTo(h(25).atZone(java.time.ZoneOffset.UTC).toLocalDate());
        assertThat(nextDay.hoursToday()).isEqualTo(8);
    }

    @Test
    void shouldAnswerAsUnknownForAnotherTenantOrAnotherNamespaceAndLetAnAdminKeep() {
        Booking booking = active();

        BookingEvent byOther = keep(TEAM_B, booking, "ray-1", 1, h(2)).events().getFirst();
        KeepWorkload elsewhere = new KeepWorkload(
                "req-elsewhere",
                null,
                TEAM_A,
                "h200",
                booking.id(),
                new WorkloadRef("team-b", "RayCluster", "ray-1"),
                1,
                h(2),
                null);
        BookingEvent outside = decider.decide(elsewhere, ledger, h(2)).events().getFirst();

        assertThat(((BookingRejected) byOther).reason()).isEqualTo("NOT_FOUND");
        assertThat(((BookingRejected) outside).reason()).isEqualTo("NOT_FOUND");
        assertThat(answer(keep(ADMIN, booking, "ray-1", 1, h(2))).granted()).isTrue();
    }

    @Test
    void shouldRefuseAKeepForABookingThatIsNotActive() {
        Decision confirmed = decider.decide(create(TEAM_A, null, 1, h(5), h(6)), ledger, Fixtures.NOW);
        ledger.apply(confirmed);
        Booking upcoming = ((BookingConfirmed) confirmed.events().getFirst()).booking();

        BookingEvent early = keep(TEAM_A, upcoming, "ray-1", 1, h(2)).events().getFirst();

        assertThat(((BookingRejected) early).reason()).isEqualTo("INVALID_STATE");
    }
}
