package io.gpuaas.booking.metrics;

import io.gpuaas.booking.model.BookingLedger.RestoreRefusal;
import io.gpuaas.booking.stream.DecisionObserver;
import io.gpuaas.booking.stream.DecisionOutcome;
import io.gpuaas.booking.stream.LifecycleOutcomes;
import io.gpuaas.events.booking.BookingCommand.ReleaseBooking;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.notice.Notice;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import jakarta.inject.Singleton;

/**
 * Every metric booking-service publishes itself; labels are pools, outcomes and reasons, never booking ids. The
 * dead-letter counter ({@code gpuaas_dead_letter_records_total}) is registered on the same registry by the events
 * module's {@code DeadLetterPublisher}, as in every service.
 */
@Singleton
public class BookingMetrics implements LifecycleOutcomes, DecisionObserver {

    private final Counter decisions;
    private final Histogram decisionSeconds;
    private final Histogram httpWaitSeconds;
    private final Counter httpTimeouts;
    private final Counter rateLimited;
    private final Counter notices;
    private final Counter noShowReleases;
    private final Counter restoreRefusals;

    public BookingMetrics(PrometheusRegistry registry) {
        decisions = Counter.builder()
                .name("gpuaas_booking_decisions_total")
                .help(
                        "Booking commands decided, by pool and outcome (confirmed, cancelled, extended or the rejection reason)")
                .labelNames("pool", "outcome")
                .register(registry);
        decisionSeconds = Histogram.builder()
                .name("gpuaas_booking_decision_seconds")
                .help("Time the single writer spent deciding and applying one command, without Kafka I/O")
                .classicUpperBounds(0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1)
                .labelNames("pool")
                .register(registry);
        httpWaitSeconds = Histogram.builder()
                .name("gpuaas_booking_http_decision_wait_seconds")
                .help("Time an HTTP call waited from publishing its command to receiving the decision")
                .classicUpperBounds(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5)
                .register(registry);
        httpTimeouts = Counter.builder()
                .name("gpuaas_booking_http_decision_timeouts_total")
                .help("HTTP calls answered 202 because the decision took longer than the bounded wait")
                .register(registry);
        rateLimited = Counter.builder()
                .name("gpuaas_booking_rate_limited_total")
                .help("Requests refused with 429 because the tenant exceeded its rate")
                .register(registry);
        notices = Counter.builder()
                .name("gpuaas_booking_notices_total")
                .help("Notices the lifecycle wrote to gpuaas.notices, by type (booking_ending_soon, no_show_warning)")
                .labelNames("type")
                .register(registry);
        noShowReleases = Counter.builder()
                .name("gpuaas_booking_no_show_releases_total")
                .help("No-show releases the lifecycle sent to the decider, by pool")
                .labelNames("pool")
                .register(registry);
        restoreRefusals = Counter.builder()
                .name("gpuaas_booking_placement_restore_refusals_total")
                .help("Flexible bookings a rebuild of the decision state could not put back at their recorded"
                        + " placement, by pool (each is logged; any is a bug or a changed pool to look at)")
                .labelNames("pool")
                .register(registry);
    }

    @Override
    public void noticed(Notice notice) {
        String type =
                switch (notice) {
                    case Notice.BookingEndingSoon n -> "booking_ending_soon";
                    case Notice.NoShowWarning n -> "no_show_warning";
                    case Notice.ReclaimPending n -> "reclaim_pending"; // idle-reclaimer's; listed for completeness
                    case Notice.MigLayoutNotReady n -> "mig_layout_not_ready"; // quota-projector's, likewise
                    case Notice.ApprovalDecided n -> "approval_decided";
                    case Notice.BookingAwaitingApproval n -> "booking_awaiting_approval";
                    case Notice.WaitlistBooked n -> "waitlist_booked";
                    case Notice.WaitlistExpired n -> "waitlist_expired";
                    case Notice.BookingUnderused n -> "booking_underused"; // metrics-gateway's, likewise
                    case Notice.BudgetThresholdReached n -> "budget_threshold_reached";
                };
        notices.labelValues(type).inc();
    }

    @Override
    public void releaseRequested(ReleaseBooking release) {
        noShowReleases.labelValues(release.pool()).inc();
    }

    @Override
    public void restoreRefused(RestoreRefusal refusal) {
        restoreRefusals.labelValues(refusal.pool()).inc();
    }

    @Override
    public void decided(DecisionOutcome outcome) {
        decisions.labelValues(outcome.pool(), outcomeOf(outcome.answer())).inc();
        decisionSeconds.labelValues(outcome.pool()).observe(outcome.nanos() / 1e9);
    }

    public void waited(long nanos) {
        httpWaitSeconds.observe(nanos / 1e9);
    }

    public void timedOut() {
        httpTimeouts.inc();
    }

    public void rateLimited() {
        rateLimited.inc();
    }

    private static String outcomeOf(BookingEvent answer) {
        return switch (answer) {
            case BookingEvent.BookingConfirmed e -> "confirmed";
            case BookingEvent.BookingCancelled e -> "cancelled";
            case BookingEvent.BookingExtended e -> "extended";
            case BookingEvent.BookingRejected e -> e.reason().toLowerCase(java.util.Locale.ROOT);
            case BookingEvent.BookingActivated e -> "activated";
            case BookingEvent.BookingCompleted e -> "completed";
            case BookingEvent.BookingReleased e -> "released";
            case BookingEvent.BookingMoved e -> "moved";
            case BookingEvent.BookingPendingApproval e -> "pending_approval";
            case BookingEvent.BookingApprovalDecided e ->
                "approval_" + e.outcome().name().toLowerCase(java.util.Locale.ROOT);
            case BookingEvent.SeriesDecided e -> "series_decided";
            case BookingEvent.SeriesCancelled e -> "series_cancelled";
            case BookingEvent.BookingWaitlisted e -> "waitlisted";
            case BookingEvent.WaitlistEnded e ->
                "waitlist_" + e.entry().state().name().toLowerCase(java.util.Locale.ROOT);
            case BookingEvent.WorkloadKeepDecided e -> e.granted() ? "keep_granted" : "keep_refused";
        };
    }
}
