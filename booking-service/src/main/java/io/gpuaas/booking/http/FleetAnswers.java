package io.gpuaas.booking.http;

import io.micronaut.core.annotation.Introspected;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** The JSON answers about a flexible pool: availability per profile, earliest start, placements and layouts. */
public final class FleetAnswers {

    private FleetAnswers() {}

    /** How many more units fit over the whole of {@code [start, end)}. */
    @Introspected
    public record Cell(Instant start, Instant end, int fit) {}

    /** One kind of unit: a MIG profile, or whole GPUs ({@code profile} null, resource {@code nvidia.com/gpu}). */
    @Introspected
    public record ProfileRow(String profile, String resource, List<Cell> slots) {}

    @Introspected
    public record ProfileAvailability(
            String pool, String gpuModel, int gpus, Instant from, Instant to, Duration step, List<ProfileRow> rows) {}

    /** {@code start} is null when nothing fits before {@code horizon}. */
    @Introspected
    public record EarliestStart(
            String pool,
            String profile,
            String resource,
            int quantity,
            Duration duration,
            Instant from,
            Instant horizon,
            Instant start,
            Instant end) {}

    /** One unit: a GPU of a node; for a MIG unit its profile and start slice (null for a whole GPU). */
    @Introspected
    public record Unit(String node, int gpu, String profile, Integer start) {}

    @Introspected
    public record PlacedBooking(
            String bookingId,
            String tenant,
            String namespace,
            String profile,
            int quantity,
            String state,
            Instant start,
            Instant end,
            List<Unit> units) {}

    /** {@code unplaced}: bookings whose recorded units are held by another in this replica (should stay empty). */
    @Introspected
    public record Placements(
            String pool, Instant from, Instant to, List<PlacedBooking> bookings, List<String> unplaced) {}

    /** A MIG instance at {@code start} and the booking holding it. */
    @Introspected
    public record Instance(String profile, int start, String bookingId) {}

    /** {@code mode}: {@code idle}, {@code whole} (held by {@code bookingId}) or {@code mig} (its instances). */
    @Introspected
    public record GpuState(String node, int gpu, String mode, String bookingId, List<Instance> instances) {}

    /** Every GPU's layout from {@code at} to the next change. */
    @Introspected
    public record LayoutChange(Instant at, List<GpuState> gpus) {}

    /** {@code truncated}: more change points lie in the range than one answer carries. */
    @Introspected
    public record Layouts(String pool, Instant from, Instant to, List<LayoutChange> changes, boolean truncated) {}
}
