package io.gpuaas.bench.mig;

import io.gpuaas.booking.placement.FleetPlacements;
import io.gpuaas.booking.placement.GpuAddress;
import io.gpuaas.booking.placement.GpuLayout;
import io.gpuaas.booking.placement.PlacementOutcome;
import io.gpuaas.booking.placement.PlacementRequest;
import io.gpuaas.booking.placement.RoomMaker;
import io.gpuaas.booking.placement.UnitPlacement;
import io.gpuaas.events.geometry.GpuGeometry;
import io.gpuaas.events.geometry.MigPlacement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A flexible pool: booking-service's {@link FleetPlacements} lays out each GPU as its bookings need, and after a
 * refusal {@link RoomMaker} tries moving one booking that has not started. The fleet is {@code nodes × 8} GPUs
 * ({@code node-000/0 …}). Every placement is passed to {@link LayoutChanges}.
 */
final class FlexibleFleet implements Fleet {

    /** Trace second 0 as an instant (any fixed instant would do: placements only compare instants). */
    static final Instant EPOCH = Instant.parse("2030-01-01T00:00:00Z");

    private final FleetPlacements placements;
    private final RoomMaker roomMaker;
    private final boolean makeRoom;
    private final LayoutChanges changes;
    private final GpuGeometry geometry;
    private int rescued;
    private int refused;

    /**
     * @param makeRoom whether a refusal goes on to {@link RoomMaker} (the replay), or stays a refusal (timing
     *                 {@link FleetPlacements#place} alone)
     */
    FlexibleFleet(GpuGeometry geometry, int gpus, boolean makeRoom) {
        List<GpuAddress> addresses = new ArrayList<>();
        for (int i = 0; i < gpus; i++) {
            addresses.add(new GpuAddress(String.format(java.util.Locale.ROOT, "node-%04d", i / 8), i % 8));
        }
        this.geometry = geometry;
        this.placements = new FleetPlacements(geometry, addresses);
        this.roomMaker = new RoomMaker(placements);
        this.makeRoom = makeRoom;
        this.changes = new LayoutChanges(geometry);
    }

    @Override
    public int gpus() {
        return placements.gpus().size();
    }

    @Override
    public boolean place(Ask ask) {
        PlacementRequest request = request(ask);
        PlacementOutcome outcome;
        if (makeRoom) {
            RoomMaker.Plan plan = roomMaker.place(request, request.start());
            outcome = plan.outcome();
            if (outcome instanceof PlacementOutcome.Placed && !plan.moves().isEmpty()) {
                rescued++;
            }
        } else {
            outcome = placements.place(request);
        }
        if (outcome instanceof PlacementOutcome.Placed placed) {
            changes.placed(ask.start(), placed.units());
            return true;
        }
        refused++;
        return false;
    }

    /** {@link FleetPlacements#place} alone, for timing: the placements and layout changes are kept as usual. */
    PlacementOutcome placeOnly(PlacementRequest request) {
        return placements.place(request);
    }

    static PlacementRequest request(Ask ask) {
        return new PlacementRequest(
                ask.id(), ask.kind(), ask.quantity(), EPOCH.plusSeconds(ask.start()), EPOCH.plusSeconds(ask.end()));
    }

    /** Bookings placed only because RoomMaker moved another one. */
    int rescued() {
        return rescued;
    }

    int refused() {
        return refused;
    }

    LayoutChanges changes() {
        return changes;
    }

    /** Compute slices held at trace second {@code t} over the fleet's. */
    double busyShare(long t) {
        long busy = 0;
        for (GpuLayout layout : placements.layoutsAt(EPOCH.plusSeconds(t)).values()) {
            busy += switch (layout) {
                case GpuLayout.Idle idle -> 0;
                case GpuLayout.Whole whole -> geometry.computeSlices();
                case GpuLayout.Mig mig ->
                    mig.instances().stream()
                            .map(MigPlacement::profile)
                            .mapToInt(p -> geometry.profile(p).orElseThrow().computeSlices())
                            .sum();
            };
        }
        return (double) busy / ((long) gpus() * geometry.computeSlices());
    }

    /** Where a placed booking's units are (tests). */
    List<UnitPlacement> unitsOf(String bookingId) {
        return placements.placementsOf(bookingId).orElse(List.of());
    }

    Map<GpuAddress, GpuLayout> layoutsAt(long t) {
        return placements.layoutsAt(EPOCH.plusSeconds(t));
    }
}
