package io.gpuaas.booking.model;

import static io.gpuaas.booking.model.Fixtures.ADMIN;
import static io.gpuaas.booking.model.Fixtures.NOW;
import static io.gpuaas.booking.model.Fixtures.POOLS;
import static io.gpuaas.booking.model.Fixtures.TEAM_A;
import static io.gpuaas.booking.model.Fixtures.TEAM_B;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingCommand;
import io.gpuaas.events.booking.Caller;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;

/** Random streams of create, cancel and change commands never confirm more than the pool holds. */
class CapacityPropertyTest {

    private static final int CAPACITY = 8;
    private static final Duration SLOT = Duration.ofMinutes(15);

    @RepeatedTest(20)
    void shouldNeverExceedCapacityWhenCommandsArriveInAnyOrder(RepetitionInfo info) {
        Random random = new Random(info.getCurrentRepetition() * 7919L);
        BookingDecider decider = new BookingDecider(POOLS, BookingPolicy.DEFAULT);
        InMemoryBookingRepository repository = new InMemoryBookingRepository();
        BookingLedger ledger = new BookingLedger(repository);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            BookingCommand command = randomCommand(random, ids);
            Decision decision = decider.decide(command, ledger, NOW);
            ledger.apply(decision);
            decision.changes().forEach(b -> ids.add(b.id()));
        }
        List<Booking> all = new ArrayList<>();
        repository.forEach(all::add);
        assertCapacityHeld(all, ledger);
    }

    private static void assertCapacityHeld(List<Booking> bookings, BookingLedger ledger) {
        TreeSet<Instant> instants = new TreeSet<>();
        bookings.forEach(b -> {
            instants.add(b.start());
            instants.add(b.end());
        });
        for (Instant t : instants) {
            int bruteForce = bookings.stream()
                    .filter(b -> b.activeAt(t))
                    .mapToInt(Booking::quantity)
                    .sum();
            assertThat(bruteForce).as("units booked at %s", t).isLessThanOrEqualTo(CAPACITY);
            assertThat(ledger.timeline("h200").reservedAt(t))
                    .as("timeline at %s", t)
                    .isEqualTo(bruteForce);
        }
    }

    private static BookingCommand randomCommand(Random random, List<String> ids) {
        Caller caller = List.of(TEAM_A, TEAM_B, ADMIN).get(random.nextInt(3));
        Instant start = NOW.plus(SLOT.multipliedBy(random.nextInt(96)));
        Instant end = start.plus(SLOT.multipliedBy(1 + random.nextInt(24)));
        int kind = ids.isEmpty() ? 0 : random.nextInt(4);
        if (kind == 1) {
            return Fixtures.cancel(caller, ids.get(random.nextInt(ids.size())));
        }
        if (kind == 2) {
            return Fixtures.change(caller, ids.get(random.nextInt(ids.size())), start, end);
        }
        return Fixtures.create(caller, null, 1 + random.nextInt(5), start, end);
    }
}
