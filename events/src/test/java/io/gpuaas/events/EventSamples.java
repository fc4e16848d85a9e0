package io.gpuaas.events;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingCommand;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.booking.Caller;
import io.gpuaas.events.booking.Interval;
import io.gpuaas.events.booking.PlacedUnit;
import io.gpuaas.events.booking.WaitlistEntry;
import io.gpuaas.events.budget.BudgetCommand;
import io.gpuaas.events.budget.BudgetHold;
import io.gpuaas.events.budget.TenantBudget;
import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.events.notice.Notice;
import io.gpuaas.events.quota.QueueState;
import io.gpuaas.events.reclaim.KeepRequested;
import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.reclaim.ReclaimIntent;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.events.tenant.TenantUtilization;
import io.gpuaas.events.usage.UsageDaily;
import io.gpuaas.events.webhook.WebhookRegistration;
import io.gpuaas.events.workload.WorkloadEvent;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One fully populated instance of every event type, with every optional field set, so goldens show them all. */
final class EventSamples {

    static final Instant T0 = Instant.parse("2026-11-22T09:00:00Z");
    static final Instant T1 = Instant.parse("2026-11-22T13:00:00Z");
    static final Instant NOW = Instant.parse("2026-11-21T17:30:00.125Z");
    /** An instant inside [T0, T1), when a booking is ended early. */
    static final Instant RELEASED_AT = Instant.parse("2026-11-22T10:12:30.250Z");

    private EventSamples() {}

    static Map<Class<?>, Object> all() {
        Map<Class<?>, Object> samples = new LinkedHashMap<>();
        booking(samples);
        put(samples, workloadObserved());
        put(
                samples,
                new WorkloadEvent.WorkloadDeleted(
                        "team-a", "raycluster-train-1-3f2a1", "7c1e0b9a-uid", "gpuaas", "gpuaas-team-a", NOW));
        put(samples, new WorkloadEvent.FeedWatermark(3, "quota-projector-7d9f8-x2k4q", NOW));
        put(samples, gpuScrape());
        put(samples, queueState());
        reclaim(samples);
        put(samples, new TenantUtilization("team-a", T0, T1, 57600.0, 43200.5, 14399.5, 0.62, Map.of("h200", 4)));
        UsageDaily.Figures mig = new UsageDaily.Figures(2.0, 1.5, 1.0, 0.5, 0.166667, 0.5);
        put(
                samples,
                new UsageDaily(
                        "team-a",
                        "2026-11-22",
                        Map.of("h200-mig-2g.35gb", mig),
                        mig,
                        42,
                        Instant.parse("2026-11-23T01:00:30.250Z"),
                        true,
                        List.of(new UsageDaily.BookingDay("bk-7f3a9c21", "h200-mig-2g.35gb", mig)),
                        Instant.parse("2026-11-23T01:00:00Z"),
                        UsageDaily.GPU_SHARE));
        notices(samples);
        budget(samples);
        put(
                samples,
                new WebhookRegistration(
                        "wh-5b1f0c2a9d3e4f60",
                        "team-a",
                        "https://hooks.team-a.example/gpuaas",
                        "on-call pager",
                        "v1.q7cTAQmWHn0UqjUuAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
                        "alice",
                        NOW));
        return samples;
    }

    static Booking booking() {
        return new Booking(
                "bk-01JD8Z",
                "team-a",
                "team-a",
                "h200-mig-2g.35gb",
                "h200-mig-2g.35gb",
                "nvidia.com/mig-2g.35gb",
                3,
                T0,
                T1,
                "fine-tune llama",
                BookingState.CONFIRMED,
                "alice",
                NOW,
                NOW,
                1);
    }

    /** A scrape of a node with a MIG instance and a full GPU, every optional field set on the first device. */
    static GpuScrape gpuScrape() {
        return new GpuScrape(
                NOW,
                "gpu-node-1",
                "10.0.3.7:9400",
                List.of(
                        new GpuScrape.Device(
                                "GPU-5d2c1f7e-0000-4000-8000-00000000000a",
                                2,
                                "NVIDIA H200",
                                "3",
                                "2g.35gb",
                                "dcgm-exporter-wwwjh",
                                "team-a",
                                "train-worker-0",
                                "pytorch",
                                0.42,
                                "GR_ENGINE_ACTIVE",
                                20480.0,
                                15360.0,
                                301.5,
                                0.0,
                                12.0),
                        new GpuScrape.Device(
                                "GPU-0a1b",
                                3,
                                "NVIDIA H200",
                                null,
                                null,
                                "dcgm-exporter-wwwjh",
                                null,
                                null,
                                null,
                                0.0,
                                "GPU_UTIL",
                                0.0,
                                143771.0,
                                69.125)));
    }

    /** A hex SHA-256, as the HTTP edge writes into commands. */
    private static final String FINGERPRINT = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

    private static void booking(Map<Class<?>, Object> samples) {
        Caller caller = new Caller("alice", "team-a", false);
        Booking b = booking();
        put(
                samples,
                new BookingCommand.CreateBooking(
                        "req-1",
                        "idem-1",
                        caller,
                        b.pool(),
                        b.id(),
                        "team-a",
                        3,
                        T0,
                        null,
                        "fine-tune llama",
                        NOW,
                        FINGERPRINT,
                        Duration.between(T0, T1),
                        null,
                        T0.plus(Duration.ofHours(6))));
        put(samples, new BookingCommand.CancelBooking("req-2", "idem-2", caller, b.pool(), b.id(), NOW, FINGERPRINT));
        put(
                samples,
                new BookingCommand.ChangeBooking(
                        "req-3", "idem-3", caller, b.pool(), b.id(), T0, T1.plusSeconds(3600), NOW, FINGERPRINT));
        put(
                samples,
                new BookingCommand.ReleaseBooking(
                        "req-5",
                        "idem-5",
                        caller,
                        b.pool(),
                        b.id(),
                        BookingCommand.ReleaseBooking.Reason.END_NOW,
                        RELEASED_AT,
                        FINGERPRINT));
        put(samples, new BookingEvent.BookingConfirmed("req-1", b, NOW));
        put(
                samples,
                new BookingEvent.BookingRejected(
                        "req-4",
                        "bk-01JD90",
                        b.pool(),
                        "team-b",
                        "CAPACITY",
                        "only 6 of 9 units free in part of the window",
                        List.of(new Interval(T0, T1, 6)),
                        T1,
                        NOW));
        put(samples, new BookingEvent.BookingCancelled("req-2", b.withState(BookingState.CANCELLED, NOW), NOW));
        WaitlistEntry waiting = waitlistEntry();
        put(samples, waiting);
        put(samples, new BookingEvent.BookingWaitlisted("req-6", waiting, List.of(new Interval(T0, T1, 6)), NOW));
        put(
                samples,
                new BookingEvent.WaitlistEnded(
                        null,
                        waiting.withState(WaitlistEntry.State.BOOKED, NOW.plusSeconds(600)),
                        NOW.plusSeconds(600)));
        WorkloadRef kept = new WorkloadRef(b.namespace(), "RayCluster", "train-1");
        put(
                samples,
                new BookingCommand.KeepWorkload("req-7", null, caller, b.pool(), b.id(), kept, 4, NOW, FINGERPRINT));
        put(
                samples,
                new BookingEvent.WorkloadKeepDecided(
                        "req-7",
                        b.id(),
                        b.tenant(),
                        kept,
                        4,
                        true,
                        null,
                        24,
                        NOW.atZone(java.time.ZoneOffset.UTC).toLocalDate(),
                        12,
                        12,
                        "alice",
                        NOW));
        put(
                samples,
                new BookingEvent.BookingExtended("req-3", b.withWindow(T0, T1.plusSeconds(3600), NOW), T0, T1, NOW));
        Booking active = b.withState(BookingState.ACTIVE, T0);
        put(samples, new BookingEvent.BookingActivated(active, T0, "req-1"));
        put(samples, new BookingEvent.BookingCompleted(b.withState(BookingState.COMPLETED, T1), T1));
        put(
                samples,
                new BookingEvent.BookingReleased(
                        "req-5",
                        active.withState(BookingState.RELEASED, RELEASED_AT),
                        BookingEvent.BookingReleased.Reason.ENDED_EARLY,
                        RELEASED_AT,
                        RELEASED_AT));
        put(
                samples,
                new BookingCommand.DecideApproval(
                        "req-6",
                        "idem-6",
                        admin(),
                        b.pool(),
                        b.id(),
                        false,
                        "the quarter's budget is spent",
                        NOW,
                        FINGERPRINT));
        Booking pending = b.withState(BookingState.PENDING_APPROVAL, NOW);
        put(samples, new BookingEvent.BookingPendingApproval("req-1", pending, 108.0, 96.0, T0, NOW));
        put(
                samples,
                new BookingEvent.BookingApprovalDecided(
                        "req-6",
                        pending.withState(BookingState.DENIED, NOW.plusSeconds(60)),
                        BookingEvent.BookingApprovalDecided.Outcome.DENIED,
                        "ops@example.com",
                        "the quarter's budget is spent",
                        NOW.plusSeconds(60)));
        put(samples, b);
        Booking flexible = new Booking(
                "bk-01JD91",
                "team-b",
                "team-b",
                "h200-flex",
                "h200-flex",
                "nvidia.com/mig-3g.71gb",
                2,
                T0,
                T1,
                null,
                BookingState.CONFIRMED,
                "bob",
                NOW,
                NOW,
                2,
                List.of(PlacedUnit.mig("gpu-node-3", 0, "3g.71gb", 4), PlacedUnit.mig("gpu-node-3", 1, "3g.71gb", 0)));
        put(
                samples,
                new BookingEvent.BookingMoved(
                        flexible,
                        List.of(
                                PlacedUnit.mig("gpu-node-3", 0, "3g.71gb", 0),
                                PlacedUnit.mig("gpu-node-3", 0, "3g.71gb", 4)),
                        "bk-01JD92",
                        NOW));
        series(samples, caller, b);
    }

    /** A weekly series: its request, its answer with one occurrence booked and one refused, and its cancel. */
    private static void series(Map<Class<?>, Object> samples, Caller caller, Booking b) {
        put(
                samples,
                new BookingCommand.CreateSeries(
                        "req-6",
                        "idem-6",
                        caller,
                        b.pool(),
                        "sr-01JD93",
                        "team-a",
                        2,
                        T0,
                        null,
                        Duration.between(T0, T1),
                        "weekly training",
                        "2g.35gb",
                        "FREQ=WEEKLY;BYDAY=SU;COUNT=2",
                        "Europe/Berlin",
                        BookingCommand.SeriesMode.EACH,
                        NOW,
                        FINGERPRINT));
        Booking occurrence = new Booking(
                "0c1f6f0e-6c0b-3b8e-9a57-1d2f0a9e4b11",
                "team-a",
                "team-a",
                b.pool(),
                b.flavor(),
                b.resource(),
                2,
                T0,
                T1,
                "weekly training",
                BookingState.CONFIRMED,
                "alice",
                NOW,
                NOW,
                1,
                null,
                "sr-01JD93");
        put(
                samples,
                new BookingEvent.SeriesDecided(
                        "req-6",
                        "sr-01JD93",
                        b.pool(),
                        "team-a",
                        "FREQ=WEEKLY;BYDAY=SU;COUNT=2",
                        "Europe/Berlin",
                        BookingCommand.SeriesMode.EACH,
                        List.of(occurrence),
                        List.of(new BookingEvent.RefusedOccurrence(
                                "5b0d3c44-2f9e-3c1a-8d6b-7e4f2a1c9d22",
                                T0.plus(Duration.ofDays(7)),
                                T1.plus(Duration.ofDays(7)),
                                "CAPACITY",
                                "only 1 of 2 units free in part of the window",
                                T1.plus(Duration.ofDays(7)))),
                        NOW));
        put(
                samples,
                new BookingCommand.CancelSeries(
                        "req-7", "idem-7", caller, b.pool(), "sr-01JD93", T1, NOW, FINGERPRINT));
        put(
                samples,
                new BookingEvent.SeriesCancelled(
                        "req-7", "sr-01JD93", b.pool(), "team-a", T1, List.of(occurrence.id()), NOW));
    }

    private static WorkloadEvent.WorkloadObserved workloadObserved() {
        WorkloadEvent.Condition admitted =
                new WorkloadEvent.Condition("Admitted", "True", "Admitted", "The workload is admitted", NOW);
        return new WorkloadEvent.WorkloadObserved(
                "team-a",
                "raycluster-train-1-3f2a1",
                "7c1e0b9a-uid",
                "48213",
                "gpuaas",
                "gpuaas-team-a",
                100,
                "high",
                true,
                admitted,
                List.of(
                        new WorkloadEvent.Condition("QuotaReserved", "True", "QuotaReserved", "Quota reserved", NOW),
                        admitted),
                List.of(
                        new WorkloadEvent.PodSet("head", 1, Map.of("cpu", "2")),
                        new WorkloadEvent.PodSet("workers", 2, Map.of("nvidia.com/mig-2g.35gb", "1"))),
                List.of(new WorkloadEvent.PodSetAdmission(
                        "workers",
                        2,
                        Map.of("nvidia.com/mig-2g.35gb", "h200-mig-2g.35gb"),
                        Map.of("nvidia.com/mig-2g.35gb", "2"))),
                new WorkloadEvent.Owner("ray.io/v1", "RayCluster", "train-1", "0a9b-owner-uid"),
                NOW);
    }

    private static QueueState queueState() {
        Map<String, Map<String, BigDecimal>> quota = Map.of("h200", Map.of("nvidia.com/gpu", BigDecimal.valueOf(4)));
        return new QueueState(
                QueueState.Kind.CLUSTER_QUEUE,
                "gpuaas-team-a",
                null,
                null,
                "gpuaas-pool",
                "team-a",
                quota,
                Map.of("h200", Map.of("nvidia.com/gpu", BigDecimal.ONE)),
                quota,
                2,
                1,
                3,
                Map.of("nvidia.com/gpu", BigDecimal.valueOf(6)),
                NOW);
    }

    private static void reclaim(Map<Class<?>, Object> samples) {
        put(
                samples,
                new Notice.ApprovalDecided(
                        Notice.approvalDecidedId("bk-01JD8Z"),
                        "bk-01JD8Z",
                        "team-a",
                        "team-a",
                        "h200",
                        8,
                        T0,
                        T1,
                        BookingEvent.BookingApprovalDecided.Outcome.APPROVED,
                        "ops@example.com",
                        "approved for the launch",
                        NOW.plusSeconds(60)));
        put(
                samples,
                new Notice.BookingAwaitingApproval(
                        Notice.awaitingApprovalId("bk-01JD8Z"),
                        "bk-01JD8Z",
                        "team-a",
                        "team-a",
                        "h200",
                        8,
                        T0,
                        T1,
                        32.0,
                        16.0,
                        NOW.plusSeconds(6 * 3600),
                        NOW));
        put(
                samples,
                new Notice.MigLayoutNotReady(
                        Notice.migLayoutNotReadyId("bk-01JD9F", T0),
                        "bk-01JD9F",
                        "team-a",
                        "team-a",
                        "h200-flex",
                        "gpu-node-3",
                        "failed",
                        "the MIG manager reported nvidia.com/mig.config.state=failed for gpuaas-3f2a9c01d4",
                        T0,
                        T0.minus(Duration.ofMinutes(8)).plusMillis(120)));
        WaitlistEntry w = waitlistEntry();
        put(
                samples,
                new Notice.WaitlistBooked(
                        Notice.waitlistBookedId(w.id()),
                        w.id(),
                        w.tenant(),
                        w.namespace(),
                        w.pool(),
                        w.quantity(),
                        T0.plus(Duration.ofHours(1)),
                        T0.plus(Duration.ofHours(1)).plus(w.length()),
                        w.createdAt(),
                        NOW.plusSeconds(600)));
        put(
                samples,
                new Notice.WaitlistExpired(
                        Notice.waitlistExpiredId(w.id()),
                        w.id(),
                        w.tenant(),
                        w.namespace(),
                        w.pool(),
                        w.quantity(),
                        w.latestStart(),
                        w.createdAt(),
                        w.latestStart().plusMillis(150)));
        WorkloadRef ref = new WorkloadRef("team-a", "RayCluster", "train-1");
        List<ReclaimEvent.ScaledGroup> groups = List.of(new ReclaimEvent.ScaledGroup("workers", 2, 1, 0));
        put(samples, new ReclaimEvent.IdleDetected(ref, "team-a", 2, T0, 1800, 0.05, 0.01, 0.98, "direct", NOW));
        put(
                samples,
                new ReclaimEvent.Reclaimed(
                        ref, "team-a", groups, 2, 1900, "RayCluster worker groups to 0", false, NOW));
        put(
                samples,
                new ReclaimEvent.Resumed(
                        ref, "team-a", List.of(new ReclaimEvent.ScaledGroup("workers", 0, 0, 2)), "alice", NOW));
        put(
                samples,
                new ReclaimEvent.ReclaimSkipped(
                        ref, "team-a", "KUEUE_NON_ELASTIC", "scaling would suspend and requeue the RayCluster", NOW));
        put(samples, new ReclaimEvent.ReclaimFailed(ref, "team-a", "CONFLICT", "resourceVersion changed", NOW));
        String window = ref.key() + "@" + T0;
        put(
                samples,
                new ReclaimIntent.ReclaimRequested(
                        ref, window, "team-a", List.of("workers"), 2, 1900, false, T0.plusSeconds(1800), NOW));
        put(samples, new ReclaimIntent.ReclaimWithdrawn(ref, window, NOW));
        put(samples, new KeepRequested(ref, "team-a", "keep-01JD9K", 4, "alice", NOW));
        put(
                samples,
                new ReclaimEvent.ReclaimKept(
                        ref, "team-a", "keep-01JD9K", 4, NOW.plus(Duration.ofHours(4)), 2, 4, 20, "alice", NOW));
    }

    private static void notices(Map<Class<?>, Object> samples) {
        Booking b = booking();
        Duration lead = Duration.ofMinutes(15);
        put(
                samples,
                new Notice.BookingEndingSoon(
                        Notice.endingSoonId(b.id(), lead, T1),
                        b.id(),
                        b.tenant(),
                        b.namespace(),
                        b.pool(),
                        b.quantity(),
                        T1,
                        lead,
                        T1.minus(lead).plusMillis(180)));
        Duration grace = Duration.ofMinutes(15);
        put(
                samples,
                new Notice.NoShowWarning(
                        Notice.noShowWarningId(b.id()),
                        b.id(),
                        b.tenant(),
                        b.namespace(),
                        b.pool(),
                        b.quantity(),
                        T0,
                        T0.plus(grace),
                        grace,
                        T0.plus(grace.dividedBy(2)).plusMillis(240)));
        put(
                samples,
                new Notice.MigLayoutNotReady(
                        Notice.migLayoutNotReadyId("bk-01JD9F", T0),
                        "bk-01JD9F",
                        "team-a",
                        "team-a",
                        "h200-flex",
                        "gpu-node-3",
                        "failed",
                        "the MIG manager reported nvidia.com/mig.config.state=failed for gpuaas-3f2a9c01d4",
                        T0,
                        T0.minus(Duration.ofMinutes(8)).plusMillis(120)));
        WorkloadRef ref = new WorkloadRef("team-a", "RayCluster", "train-1");
        Duration window = Duration.ofMinutes(15);
        put(
                samples,
                new Notice.ReclaimPending(
                        Notice.reclaimPendingId(ref, T0),
                        "team-a",
                        ref.namespace(),
                        ref,
                        ref.key() + "@" + T0,
                        T0,
                        T0.plus(window),
                        window,
                        T0.plus(Duration.ofMinutes(12)).plusMillis(130),
                        Notice.ReclaimPending.keepPath(ref)));
        Instant since = T0.plus(Duration.ofHours(1));
        put(
                samples,
                new Notice.BookingUnderused(
                        Notice.underusedId(b.id(), T0),
                        b.id(),
                        b.tenant(),
                        b.namespace(),
                        b.pool(),
                        b.quantity(),
                        0.125,
                        0.2,
                        0.25,
                        2.0,
                        since,
                        Duration.ofHours(1),
                        since.plus(Duration.ofHours(1))));
    }

    private static Caller admin() {
        return new Caller("ops@example.com", "platform", true);
    }

    /** Team a's November budget of 2,000 GPU-hours: its state, how it was set, a request through it, a notice. */
    private static void budget(Map<Class<?>, Object> samples) {
        Caller admin = new Caller("platform-admin", "platform", true);
        Caller caller = new Caller("alice", "team-a", false);
        BigDecimal limit = new BigDecimal("2000");
        put(
                samples,
                new TenantBudget(
                        "team-a",
                        "2026-11",
                        TenantBudget.Unit.GPU_HOURS,
                        limit,
                        null,
                        new BigDecimal("1612.5"),
                        new BigDecimal("12"),
                        false,
                        NOW));
        put(
                samples,
                new BudgetCommand.SetBudget(
                        "req-7", admin, "team-a", "2026-11", TenantBudget.Unit.GPU_HOURS, limit, null, NOW));
        Booking b = booking();
        BookingCommand.CreateBooking create = new BookingCommand.CreateBooking(
                        "req-8",
                        "idem-8",
                        caller,
                        "h200",
                        "bk-01JD95",
                        "team-a",
                        2,
                        T0,
                        T1,
                        "eval",
                        NOW,
                        FINGERPRINT,
                        null,
                        null,
                        null)
                .withBudgetHold(new BudgetHold(
                        TenantBudget.Unit.GPU_HOURS,
                        List.of(new BudgetHold.MonthAmount("2026-11", new BigDecimal("8")))));
        put(samples, new BudgetCommand.HoldCreate("team-a", create));
        put(
                samples,
                new BudgetCommand.HoldChange(
                        "team-a",
                        new BookingCommand.ChangeBooking(
                                "req-9",
                                "idem-9",
                                caller,
                                b.pool(),
                                b.id(),
                                T0,
                                T1.plusSeconds(3600),
                                NOW,
                                FINGERPRINT)));
        put(
                samples,
                new BudgetCommand.HoldSeries(
                        "team-a",
                        new BookingCommand.CreateSeries(
                                "req-10",
                                "idem-10",
                                caller,
                                "h200",
                                "sr-01JD96",
                                "team-a",
                                1,
                                T0,
                                T1,
                                null,
                                "weekly eval",
                                null,
                                "FREQ=WEEKLY;COUNT=3",
                                null,
                                BookingCommand.SeriesMode.EACH,
                                NOW,
                                FINGERPRINT)));
        put(
                samples,
                new BudgetCommand.BookingOutcome(
                        "team-a", "req-1", b.id(), BudgetCommand.BookingOutcome.Outcome.DECIDED, List.of(b), NOW));
        put(
                samples,
                new Notice.BudgetThresholdReached(
                        Notice.budgetThresholdId("team-a", "2026-11", 80),
                        "team-a",
                        "2026-11",
                        80,
                        TenantBudget.Unit.GPU_HOURS,
                        limit,
                        null,
                        new BigDecimal("1612.5"),
                        NOW));
    }

    /** A request for 3 units for two hours from T0, waiting up to six hours later. */
    static WaitlistEntry waitlistEntry() {
        return new WaitlistEntry(
                "bk-01JD91",
                "req-6",
                "team-b",
                "team-b",
                booking().pool(),
                null,
                3,
                T0,
                T0.plus(Duration.ofHours(6)),
                Duration.between(T0, T1),
                "eval run",
                "bob",
                WaitlistEntry.State.WAITING,
                NOW,
                NOW);
    }

    private static void put(Map<Class<?>, Object> samples, Object sample) {
        samples.put(sample.getClass(), sample);
    }
}
