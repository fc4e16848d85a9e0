package io.gpuaas.booking.model;

import io.gpuaas.booking.placement.FleetPlacements;
import io.gpuaas.booking.placement.PlacementOutcome;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The decision state of the pools one writer owns: bookings in a {@link BookingRepository}, plus indexes derived
 * from them and kept in memory (rebuilt by {@link #rebuild()} whenever the writer (re)starts): a timeline per
 * pool, a timeline per pool and tenant (for the tenant cap), a time index of the next lifecycle boundary of
 * every booking so the clock only looks at bookings that are due, and the placements of every flexible pool
 * ({@link FleetPlacements}, from the placements the bookings record). On a flexible pool the timelines count memory
 * slices, not units ({@link PoolUnits#weight}): units of different profiles weigh differently.
 */
public final class BookingLedger {

    /**
     * A booking a rebuild could not put back on its pool's fleet at the units it records: its GPUs or slices are
     * held by another booking, or no longer in the pool. It stays in the store and on the timelines, but holds no
     * place on the fleet, so a later booking may be given its units: an operator must look.
     *
     * @param pool      the pool
     * @param bookingId the booking
     * @param reason    the fleet's refusal
     * @param message   its details
     */
    public record RestoreRefusal(String pool, String bookingId, String reason, String message) {}

    /** Running bookings first, then by start and id: a running booking is never the one a conflict leaves out. */
    private static final Comparator<Booking> RESTORE_ORDER = Comparator.comparing(
                    (Booking b) -> b.state() == BookingState.ACTIVE ? 0 : 1)
            .thenComparing(Booking::start)
            .thenComparing(Booking::id);

    private final BookingRepository repository;
    private final FlexibleFleets fleets;
    private final Approvals approvals;
    private final Map<String, PoolTimeline> pools = new HashMap<>();
    private final Map<String, PoolTimeline> tenants = new HashMap<>();
    private final TreeMap<Long, Set<String>> due = new TreeMap<>();
    private final List<RestoreRefusal> refusals = new ArrayList<>();
    private final WaitlistBook waitlist;

    /** A ledger of static pools only (no fleets): every booking counts its quantity. */
    public BookingLedger(BookingRepository repository) {
        this(repository, new PoolCatalog(List.of()));
    }

    /** A ledger with a fleet per flexible pool of {@code pools}. */
    public BookingLedger(BookingRepository repository, PoolCatalog pools) {
        this(repository, pools, new InMemoryWaitlistRepository());
    }

    /** A ledger with a fleet per flexible pool of {@code pools} and its waitlist in {@code waiting}. */
    public BookingLedger(BookingRepository repository, PoolCatalog pools, WaitlistRepository waiting) {
        this.repository = repository;
        this.fleets = new FlexibleFleets(pools);
        this.approvals = new Approvals(pools);
        this.waitlist = new WaitlistBook(waiting);
    }

    /** The entries waiting on this writer's pools; read-only for callers. */
    public WaitlistBook waitlist() {
        return waitlist;
    }

    /**
     * Rebuilds every in-memory index from the repository. Flexible bookings go back on their fleets at the units they
     * record, in {@link #RESTORE_ORDER} (deterministic whatever order the store iterates in); a refusal is kept in
     * {@link #restoreRefusals()}, never dropped silently.
     */
    public BookingLedger rebuild() {
        pools.clear();
        tenants.clear();
        due.clear();
        fleets.clear();
        refusals.clear();
        waitlist.rebuild();
        List<Booking> flexible = new ArrayList<>();
        repository.forEach(b -> {
            indexTimelines(b);
            if (fleets.placed(b)) {
                flexible.add(b);
            } else if (fleets.unplaced(b)) {
                refusals.add(new RestoreRefusal(
                        b.pool(), b.id(), "NO_PLACEMENT", "a booking of a flexible pool records no placement"));
            }
        });
        flexible.sort(RESTORE_ORDER);
        for (Booking b : flexible) {
            fleets.index(b)
                    .ifPresent(r -> refusals.add(
                            new RestoreRefusal(b.pool(), b.id(), r.reason().name(), r.message())));
        }
        return this;
    }

    /** What the last {@link #rebuild()} could not put back on a fleet. */
    public List<RestoreRefusal> restoreRefusals() {
        return List.copyOf(refusals);
    }

    /** The placements of the flexible pool {@code pool}; read-only for callers outside a decision. */
    Optional<FleetPlacements> fleet(String pool) {
        return fleets.of(pool);
    }

    public Optional<Booking> booking(String bookingId) {
        return repository.find(bookingId);
    }

    public Optional<IdempotencyEntry> idempotency(String scopedKey) {
        return repository.findIdempotency(scopedKey);
    }

    /** Reserved units of all bookings on {@code pool}; read-only for callers. */
    public PoolTimeline timeline(String pool) {
        return pools.computeIfAbsent(pool, p -> new PoolTimeline());
    }

    /** Reserved units of one tenant on {@code pool}; read-only for callers. */
    public PoolTimeline tenantTimeline(String pool, String tenant) {
        return tenants.computeIfAbsent(pool + '\u0000' + tenant, p -> new PoolTimeline());
    }

    /** The keep hours granted to {@code bookingId}'s workloads on the day of its last grant ({@link KeepDecisions}). */
    public Optional<KeptHours> kept(String bookingId) {
        return repository.findKept(bookingId);
    }

    /** Stores every change of {@code decision} and updates the indexes. */
    public void apply(Decision decision) {
        decision.changes().forEach(this::apply);
        waitlist.apply(decision.events());
        for (BookingEvent event : decision.events()) {
            if (event instanceof BookingEvent.WorkloadKeepDecided keep && keep.granted()) {
                repository.saveKept(keep.bookingId(), new KeptHours(keep.day(), keep.hoursToday()));
            }
        }
        if (decision.idempotency() != null) {
            repository.saveIdempotency(
                    decision.idempotency().scopedKey(), decision.idempotency().entry());
        }
    }

    /**
     * Stores one new booking state and updates the indexes. A placement the fleet refuses here is a bug (the decider
     * placed it on this very fleet): the writer stops rather than hold a booking nowhere.
     */
    public void apply(Booking next) {
        repository.find(next.id()).ifPresent(this::unindex);
        repository.save(next);
        indexTimelines(next);
        Optional<PlacementOutcome.Refused> refused = fleets.index(next);
        if (refused.isPresent()) {
            throw new IllegalStateException(
                    "booking " + next.id() + " on pool " + next.pool() + ": its placement was refused: "
                            + refused.get().reason() + " " + refused.get().message());
        }
    }

    /** Bookings whose next lifecycle boundary is at or before {@code now}, earliest first. */
    public List<Booking> dueAt(Instant now) {
        List<Booking> out = new ArrayList<>();
        for (Set<String> ids : due.headMap(now.toEpochMilli(), true).values()) {
            for (String id : ids) {
                repository.find(id).ifPresent(out::add);
            }
        }
        return out;
    }

    private void indexTimelines(Booking booking) {
        if (!booking.state().takesCapacity()) {
            return;
        }
        int weight = weight(booking);
        timeline(booking.pool()).reserve(booking.start(), booking.end(), weight);
        tenantTimeline(booking.pool(), booking.tenant()).reserve(booking.start(), booking.end(), weight);
        due.computeIfAbsent(nextBoundary(booking), t -> new LinkedHashSet<>()).add(booking.id());
    }

    private void unindex(Booking booking) {
        fleets.unindex(booking);
        if (!booking.state().takesCapacity()) {
            return;
        }
        int weight = weight(booking);
        timeline(booking.pool()).release(booking.start(), booking.end(), weight);
        tenantTimeline(booking.pool(), booking.tenant()).release(booking.start(), booking.end(), weight);
        long at = nextBoundary(booking);
        Set<String> ids = due.get(at);
        if (ids != null && ids.remove(booking.id()) && ids.isEmpty()) {
            due.remove(at);
        }
    }

    /** The booking's units as its pool's timelines count them: memory slices on a flexible pool. */
    int weight(Booking booking) {
        Optional<Pool> pool = fleets.pool(booking.pool()).filter(Pool::flexible);
        return pool.map(p -> booking.quantity() * PoolUnits.weight(p, p.profileOf(booking.resource())))
                .orElse(booking.quantity());
    }

    /** Start while CONFIRMED, end while ACTIVE, the end of its hold while awaiting approval. */
    private long nextBoundary(Booking booking) {
        Instant next =
                switch (booking.state()) {
                    case CONFIRMED -> booking.start();
                    case PENDING_APPROVAL -> approvals.holdUntil(booking);
                    default -> booking.end();
                };
        return next.toEpochMilli();
    }
}
