package io.gpuaas.metrics.ledger;

import static io.gpuaas.metrics.ledger.LedgerRecords.POOLS;
import static io.gpuaas.metrics.ledger.LedgerRecords.activated;
import static io.gpuaas.metrics.ledger.LedgerRecords.admitted;
import static io.gpuaas.metrics.ledger.LedgerRecords.booking;
import static io.gpuaas.metrics.ledger.LedgerRecords.confirmed;
import static io.gpuaas.metrics.ledger.LedgerRecords.finished;
import static io.gpuaas.metrics.ledger.LedgerRecords.reclaimed;
import static io.gpuaas.metrics.ledger.LedgerRecords.released;
import static io.gpuaas.metrics.ledger.LedgerRecords.resumed;
import static io.gpuaas.metrics.ledger.LedgerRecords.scrape;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingEvent.BookingReleased.Reason;
import io.gpuaas.events.usage.UsageDaily.Figures;
import io.gpuaas.events.workload.WorkloadEvent;
import io.gpuaas.metrics.ledger.Ledger.BookingRow;
import io.gpuaas.metrics.ledger.Ledger.DayRow;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LedgerInputsTest {

    private static final Instant T10 = Instant.parse("2026-11-22T10:00:00Z");
    private static final LocalDate DAY = LocalDate.parse("2026-11-22");
    private static final LocalDate NEXT = DAY.plusDays(1);

    private final LedgerInputs inputs = new LedgerInputs(POOLS, 0.05, Duration.ofSeconds(30));

    private static Instant at(int minutesAfter10) {
        return T10.plus(Duration.ofMinutes(minutesAfter10));
    }

    private Figures bookingFigures(String id) {
        return inputs.ledger().bookings(DAY, NEXT.plusDays(1), t -> true).stream()
                .filter(r -> r.booking().id().equals(id))
                .findFirst()
                .orElseThrow()
                .figures();
    }

    @Test
    void shouldWeighMigSlicesByTheirShareOfAGpuWhenBooked() {
        Booking b = booking("bk-mig", "team-a", "h200-mig-1g.18gb", 2, T10, at(90));
        inputs.apply(confirmed(b));

        // 2 × 1g.18gb on H200 for 90 min = 2 × 1/7 × 1.5 = 0.428571 GPU-h
        assertThat(bookingFigures("bk-mig").booked()).isEqualTo(0.428571);
    }

    @Test
    void shouldSplitABookingAtUtcMidnightWhenItSpansTwoDays() {
        Booking b = booking(
                "bk-night",
                "team-a",
                "h200",
                3,
                Instant.parse("2026-11-22T23:00:00Z"),
                Instant.parse("2026-11-23T01:30:00Z"));
        inputs.apply(confirmed(b));

        List<DayRow> days = inputs.ledger().days(DAY, NEXT.plusDays(1), t -> true);
        // 3 GPUs × 1 h before midnight = 3.0; 3 × 1.5 h after = 4.5
        assertThat(days)
                .extracting(r -> r.day().toString(), r -> r.figures().booked())
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("2026-11-22", 3.0),
                        org.assertj.core.groups.Tuple.tuple("2026-11-23", 4.5));
    }

    @Test
    void shouldCountTheReleasedRestAndItsReasonWhenABookingIsEndedEarlyOrANoShow() {
        Booking endNow = booking("bk-end", "team-a", "h200", 2, T10, at(120));
        Booking noShow = booking("bk-noshow", "team-a", "h200-mig-2g.35gb", 1, T10, at(120));
        inputs.apply(confirmed(endNow));
        inputs.apply(released(endNow, Reason.ENDED_EARLY, at(45)));
        inputs.apply(confirmed(noShow));
        inputs.apply(released(noShow, Reason.NO_SHOW, at(15)));

        // end now: booked 2 × 2 h = 4.0, released 2 × (120 − 45) min = 2 × 1.25 = 2.5
        assertThat(bookingFigures("bk-end").booked()).isEqualTo(4.0);
        assertThat(bookingFigures("bk-end").released()).isEqualTo(2.5);
        // no-show: a 2g.35gb is 1/3 of an H200 (three fill one): 1 × 1/3 × 1.75 h = 0.583333 released of
        // 1 × 1/3 × 2 h = 0.666667 booked
        assertThat(bookingFigures("bk-noshow").released()).isEqualTo(0.583333);
        assertThat(bookingFigures("bk-noshow").booked()).isEqualTo(0.666667);
        assertThat(inputs.ledger().bookings(DAY, NEXT, t -> true))
                .extracting(BookingRow::releaseReason, BookingRow::releasedAt)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple("ENDED_EARLY", at(45)),
                        org.assertj.core.groups.Tuple.tuple("NO_SHOW", at(15)));
    }

    @Test
    void shouldCapAdmittedAtTheBookedQuantityWhenMoreIsAdmitted() {
        inputs.apply(confirmed(booking("bk-1", "team-a", "h200", 2, T10, at(60))));
        inputs.apply("team-a/big", admitted("team-a", "big", "h200", 3, T10));
        inputs.apply("team-a/big", finished("team-a", "big", "h200", 3, at(60)));

        // 3 GPUs admitted for 1 h under a booking of 2: 2.0, not 3.0
        assertThat(bookingFigures("bk-1").admitted()).isEqualTo(2.0);
    }

    @Test
    void shouldServeTheEarliestBookingFirstWhenOneTenantHoldsSeveralOnAPool() {
        inputs.apply(confirmed(booking("bk-b", "team-a", "h200", 2, T10, at(60))));
        inputs.apply(confirmed(booking("bk-a", "team-a", "h200", 2, T10, at(60))));
        inputs.apply(confirmed(booking("bk-early", "team-a", "h200", 1, at(-30), at(60))));
        inputs.apply("team-a/w", admitted("team-a", "w", "h200", 2, T10));
        inputs.apply("team-a/w", finished("team-a", "w", "h200", 2, at(30)));

        // 2 GPUs for 30 min: the earliest start takes 1 (0.5 GPU-h), then bk-a (id before bk-b) the other 1
        assertThat(bookingFigures("bk-early").admitted()).isEqualTo(0.5);
        assertThat(bookingFigures("bk-a").admitted()).isEqualTo(0.5);
        assertThat(bookingFigures("bk-b").admitted()).isZero();
    }

    @Test
    void shouldCountAdmissionsOnlyOnTheBookingsFlavorAndWhileItHolds() {
        Booking b = booking("bk-1", "team-a", "h200", 1, T10, at(60));
        inputs.apply(confirmed(b));
        inputs.apply(released(b, Reason.ENDED_EARLY, at(20)));
        inputs.apply("team-a/w", admitted("team-a", "w", "h200", 1, T10));
        inputs.apply("team-a/mig", admitted("team-a", "mig", "h200-mig-1g.18gb", 1, T10));
        inputs.apply("team-b/w", admitted("team-b", "w", "h200", 1, T10));
        inputs.apply(scrape("n1", "GPU-x", "h200", "team-a", at(59), 0.9));

        // held 10:00-10:20 only; admitted until the latest event time, but the booking stopped holding at 10:20
        assertThat(bookingFigures("bk-1").admitted()).isEqualTo(0.333333);
    }

    @Test
    void shouldSplitDeviceTimeIntoBusyAndIdleCappedAtTheBookingWhenSampled() {
        inputs.apply(confirmed(booking("bk-1", "team-a", "h200", 1, T10, at(60))));
        // Two devices of team-a, read every 10 s for one minute: one busy, one idle. Only one GPU is booked, so the
        // minute's 60 s × 1 cap takes the busy device's 60 s first and none of the idle one.
        for (int s = 0; s <= 60; s += 10) {
            inputs.apply(scrape("n1", "GPU-busy", "h200", "team-a", T10.plusSeconds(s), 0.9));
            inputs.apply(scrape("n2", "GPU-idle", "h200", "team-a", T10.plusSeconds(s), 0.01));
        }
        // 60 s busy = 0.016667 GPU-h; the idle device's minute is over the cap
        assertThat(bookingFigures("bk-1").busy()).isEqualTo(0.016667);
        assertThat(bookingFigures("bk-1").idle()).isZero();
    }

    @Test
    void shouldCountIdleDeviceTimeWhenTheBookingHasRoomForIt() {
        inputs.apply(confirmed(booking("bk-1", "team-a", "h200-mig-1g.18gb", 2, T10, at(60))));
        for (int s = 0; s <= 120; s += 10) {
            inputs.apply(scrape("n1", "GPU-m", "h200-mig-1g.18gb", "team-a", T10.plusSeconds(s), 0.0));
        }
        // 120 s idle of a 1/7 slice = 120 / 3600 / 7 = 0.004762 GPU-h
        assertThat(bookingFigures("bk-1").idle()).isEqualTo(0.004762);
        assertThat(bookingFigures("bk-1").busy()).isZero();
    }

    @Test
    void shouldCountReclaimedGpusFromTheReclaimUntilTheResume() {
        inputs.apply(confirmed(booking("bk-1", "team-a", "h200", 4, T10, at(120))));
        inputs.apply(reclaimed("team-a", "ray", 2, at(30)));
        inputs.apply(resumed("team-a", "ray", at(75)));

        // 2 GPUs freed for 45 min = 1.5 GPU-h
        assertThat(bookingFigures("bk-1").reclaimed()).isEqualTo(1.5);
    }

    @Test
    void shouldComputeTheSameLedgerWhenTheTopicsInterleaveDifferently() {
        LedgerInputs other = new LedgerInputs(POOLS, 0.05, Duration.ofSeconds(30));
        Booking b = booking("bk-1", "team-a", "h200", 2, T10, at(60));
        WorkloadEvent admit = admitted("team-a", "w", "h200", 1, at(5));
        inputs.apply(confirmed(b));
        inputs.apply(activated(b));
        inputs.apply("team-a/w", admit);
        inputs.apply(scrape("n1", "GPU-1", "h200", "team-a", at(10), 0.9));
        inputs.apply(scrape("n1", "GPU-1", "h200", "team-a", at(10).plusSeconds(20), 0.9));
        inputs.apply(reclaimed("team-a", "ray", 1, at(40)));

        other.apply(reclaimed("team-a", "ray", 1, at(40)));
        other.apply(scrape("n1", "GPU-1", "h200", "team-a", at(10), 0.9));
        other.apply("team-a/w", admit);
        other.apply(scrape("n1", "GPU-1", "h200", "team-a", at(10).plusSeconds(20), 0.9));
        other.apply(confirmed(b));
        other.apply(activated(b));

        assertThat(other.ledger().days(DAY, NEXT, t -> true))
                .isEqualTo(inputs.ledger().days(DAY, NEXT, t -> true))
                .isNotEmpty();
        assertThat(other.ledger().records()).isEqualTo(inputs.ledger().records());
    }

    @Test
    void shouldRefuseAWorkloadWhoseGpuQuantityIsNotWholeWhenFolded() {
        WorkloadEvent.WorkloadObserved w = (WorkloadEvent.WorkloadObserved) admitted("team-a", "w", "h200", 1, T10);
        WorkloadEvent.WorkloadObserved half = new WorkloadEvent.WorkloadObserved(
                w.namespace(),
                w.name(),
                w.uid(),
                w.resourceVersion(),
                w.queueName(),
                w.clusterQueue(),
                null,
                null,
                true,
                w.transition(),
                w.conditions(),
                w.podSets(),
                List.of(new WorkloadEvent.PodSetAdmission(
                        "main", 1, Map.of("nvidia.com/gpu", "h200"), Map.of("nvidia.com/gpu", "500m"))),
                null,
                T10);

        assertThatThrownBy(() -> inputs.apply("team-a/w", half)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldCountOnlyWhatHasAccruedByTheLatestEventForTheCounters() {
        inputs.apply(confirmed(booking("bk-1", "team-a", "h200", 2, T10, at(120))));
        inputs.apply(scrape("n1", "GPU-1", "h200", "team-a", at(30), 0.9));

        // booked 2 × 2 h in the API's rows, 2 × 0.5 h accrued by 10:30 on the gauge
        assertThat(inputs.ledger().days(DAY, NEXT, t -> true))
                .singleElement()
                .satisfies(row -> assertThat(row.figures().booked()).isEqualTo(4.0));
        assertThat(inputs.ledger().totals().get("team-a").get("h200").booked()).isEqualTo(1.0);
    }
}
