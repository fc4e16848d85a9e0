package io.gpuaas.events;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingCommand;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.WaitlistEntry;
import io.gpuaas.events.budget.BudgetCommand;
import io.gpuaas.events.budget.TenantBudget;
import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.events.notice.Notice;
import io.gpuaas.events.quota.QueueState;
import io.gpuaas.events.reclaim.KeepRequested;
import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.reclaim.ReclaimIntent;
import io.gpuaas.events.tenant.TenantUtilization;
import io.gpuaas.events.usage.UsageDaily;
import io.gpuaas.events.webhook.WebhookRegistration;
import io.gpuaas.events.workload.WorkloadEvent;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The CloudEvents {@code type} of every record class, e.g. {@code io.gpuaas.booking.confirmed.v1}. A change that
 * breaks readers gets a new version suffix and a new entry here; the JSON Schema of a type lives at
 * {@code /schemas/<type>.json} in this module.
 */
public final class EventTypes {

    private static final Map<Class<?>, String> TYPES = new LinkedHashMap<>();
    private static final Map<String, Class<?>> CLASSES = new LinkedHashMap<>();

    static {
        register(BookingCommand.CreateBooking.class, "io.gpuaas.booking.command.create.v1");
        register(BookingCommand.CancelBooking.class, "io.gpuaas.booking.command.cancel.v1");
        register(BookingCommand.ChangeBooking.class, "io.gpuaas.booking.command.change.v1");
        register(BookingCommand.ReleaseBooking.class, "io.gpuaas.booking.command.release.v1");
        register(BookingEvent.BookingConfirmed.class, "io.gpuaas.booking.confirmed.v1");
        register(BookingEvent.BookingRejected.class, "io.gpuaas.booking.rejected.v1");
        register(BookingEvent.BookingCancelled.class, "io.gpuaas.booking.cancelled.v1");
        register(BookingEvent.BookingExtended.class, "io.gpuaas.booking.extended.v1");
        register(BookingEvent.BookingActivated.class, "io.gpuaas.booking.activated.v1");
        register(BookingEvent.BookingCompleted.class, "io.gpuaas.booking.completed.v1");
        register(BookingEvent.BookingReleased.class, "io.gpuaas.booking.released.v1");
        register(BookingEvent.BookingMoved.class, "io.gpuaas.booking.moved.v1");
        register(BookingCommand.DecideApproval.class, "io.gpuaas.booking.command.approval.v1");
        register(BookingEvent.BookingPendingApproval.class, "io.gpuaas.booking.pending-approval.v1");
        register(BookingEvent.BookingApprovalDecided.class, "io.gpuaas.booking.approval-decided.v1");
        register(BookingCommand.CreateSeries.class, "io.gpuaas.booking.command.create-series.v1");
        register(BookingCommand.CancelSeries.class, "io.gpuaas.booking.command.cancel-series.v1");
        register(BookingEvent.SeriesDecided.class, "io.gpuaas.booking.series-decided.v1");
        register(BookingEvent.SeriesCancelled.class, "io.gpuaas.booking.series-cancelled.v1");
        register(BookingEvent.BookingWaitlisted.class, "io.gpuaas.booking.waitlisted.v1");
        register(BookingEvent.WaitlistEnded.class, "io.gpuaas.booking.waitlist-ended.v1");
        register(BookingCommand.KeepWorkload.class, "io.gpuaas.booking.command.keep.v1");
        register(BookingEvent.WorkloadKeepDecided.class, "io.gpuaas.booking.keep-decided.v1");
        register(WaitlistEntry.class, "io.gpuaas.booking.waitlist-entry.v1");
        register(Booking.class, "io.gpuaas.booking.state.v1");
        register(BudgetCommand.SetBudget.class, "io.gpuaas.budget.command.set.v1");
        register(BudgetCommand.HoldCreate.class, "io.gpuaas.budget.command.hold-create.v1");
        register(BudgetCommand.HoldChange.class, "io.gpuaas.budget.command.hold-change.v1");
        register(BudgetCommand.HoldSeries.class, "io.gpuaas.budget.command.hold-series.v1");
        register(BudgetCommand.BookingOutcome.class, "io.gpuaas.budget.command.booking-outcome.v1");
        register(TenantBudget.class, "io.gpuaas.budget.state.v1");
        register(WorkloadEvent.WorkloadObserved.class, "io.gpuaas.kueue.workload.observed.v1");
        register(WorkloadEvent.WorkloadDeleted.class, "io.gpuaas.kueue.workload.deleted.v1");
        register(WorkloadEvent.FeedWatermark.class, "io.gpuaas.kueue.feed-watermark.v1");
        register(GpuScrape.class, "io.gpuaas.gpu.scrape.v1");
        register(QueueState.class, "io.gpuaas.quota.queue-state.v1");
        register(ReclaimEvent.IdleDetected.class, "io.gpuaas.reclaim.idle-detected.v1");
        register(ReclaimEvent.Reclaimed.class, "io.gpuaas.reclaim.reclaimed.v1");
        register(ReclaimEvent.Resumed.class, "io.gpuaas.reclaim.resumed.v1");
        register(ReclaimEvent.ReclaimSkipped.class, "io.gpuaas.reclaim.skipped.v1");
        register(ReclaimEvent.ReclaimFailed.class, "io.gpuaas.reclaim.failed.v1");
        register(ReclaimEvent.ReclaimKept.class, "io.gpuaas.reclaim.kept.v1");
        register(ReclaimIntent.ReclaimRequested.class, "io.gpuaas.reclaim.intent.requested.v1");
        register(ReclaimIntent.ReclaimWithdrawn.class, "io.gpuaas.reclaim.intent.withdrawn.v1");
        register(KeepRequested.class, "io.gpuaas.reclaim.keep.requested.v1");
        register(TenantUtilization.class, "io.gpuaas.tenant.utilization.v1");
        register(UsageDaily.class, "io.gpuaas.usage.daily.v1");
        register(Notice.BookingEndingSoon.class, "io.gpuaas.notice.booking-ending-soon.v1");
        register(Notice.NoShowWarning.class, "io.gpuaas.notice.no-show-warning.v1");
        register(Notice.ReclaimPending.class, "io.gpuaas.notice.reclaim-pending.v1");
        register(Notice.MigLayoutNotReady.class, "io.gpuaas.notice.mig-layout-not-ready.v1");
        register(Notice.ApprovalDecided.class, "io.gpuaas.notice.approval-decided.v1");
        register(Notice.BookingAwaitingApproval.class, "io.gpuaas.notice.booking-awaiting-approval.v1");
        register(Notice.WaitlistBooked.class, "io.gpuaas.notice.waitlist-booked.v1");
        register(Notice.WaitlistExpired.class, "io.gpuaas.notice.waitlist-expired.v1");
        register(Notice.BudgetThresholdReached.class, "io.gpuaas.notice.budget-threshold-reached.v1");
        register(Notice.BookingUnderused.class, "io.gpuaas.notice.booking-underused.v1");
        register(WebhookRegistration.class, "io.gpuaas.webhook.registration.v1");
    }

    private EventTypes() {}

    private static void register(Class<?> type, String ceType) {
        TYPES.put(type, ceType);
        CLASSES.put(ceType, type);
    }

    /** The CloudEvents type of a record class. */
    public static String typeOf(Class<?> recordClass) {
        String type = TYPES.get(recordClass);
        if (type == null) {
            throw new IllegalArgumentException("not a gpuaas event class: " + recordClass.getName());
        }
        return type;
    }

    /** The record class of a CloudEvents type, if it is one of ours. */
    public static Optional<Class<?>> classOf(String ceType) {
        return Optional.ofNullable(CLASSES.get(ceType));
    }

    /** Every registered type, in registration order. */
    public static Map<String, Class<?>> all() {
        return java.util.Collections.unmodifiableMap(CLASSES);
    }
}
