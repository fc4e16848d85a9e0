package io.gpuaas.events.booking;

import java.time.Instant;
import java.util.List;

/**
 * The latest state of one booking; the value of the compacted {@code gpuaas.bookings} topic.
 *
 * @param id        booking id (the key)
 * @param tenant    owning tenant
 * @param namespace the tenant namespace the capacity is for
 * @param pool      pool id, e.g. {@code h200} or {@code h200-mig-2g.35gb}
 * @param flavor    Kueue ResourceFlavor of the pool
 * @param resource  Kubernetes resource name of the pool, e.g. {@code nvidia.com/gpu}
 * @param quantity  units of {@code resource} reserved
 * @param start     inclusive start of the window
 * @param end       exclusive end of the window
 * @param purpose   free text, may be null
 * @param state     lifecycle state
 * @param createdBy subject that created the booking
 * @param createdAt when it was confirmed
 * @param updatedAt when this state was reached
 * @param version   increments with every change, starting at 1
 * @param placement on a flexible pool, where each of its {@code quantity} units sits for the whole window (a GPU,
 *                  and for a MIG unit its profile and start slice), decided with the booking and moved only before
 *                  its start ({@link BookingEvent.BookingMoved}); null on a static pool
 * @param seriesId  the recurring series this booking is one occurrence of
 *                  ({@link BookingCommand.CreateSeries}), or null for a booking of its own
 */
public record Booking(
        String id,
        String tenant,
        String namespace,
        String pool,
        String flavor,
        String resource,
        int quantity,
        Instant start,
        Instant end,
        String purpose,
        BookingState state,
        String createdBy,
        Instant createdAt,
        Instant updatedAt,
        long version,
        List<PlacedUnit> placement,
        String seriesId) {

    public Booking {
        placement = placement == null ? null : List.copyOf(placement);
    }

    /** A booking of its own, not an occurrence of a series. */
    public Booking(
            String id,
            String tenant,
            String namespace,
            String pool,
            String flavor,
            String resource,
            int quantity,
            Instant start,
            Instant end,
            String purpose,
            BookingState state,
            String createdBy,
            Instant createdAt,
            Instant updatedAt,
            long version,
            List<PlacedUnit> placement) {
        this(
                id, tenant, namespace, pool, flavor, resource, quantity, start, end, purpose, state, createdBy,
                createdAt, updatedAt, version, placement, null);
    }

    /** A booking without a placement (a static pool). */
    public Booking(
            String id,
            String tenant,
            String namespace,
            String pool,
            String flavor,
            String resource,
            int quantity,
            Instant start,
            Instant end,
            String purpose,
            BookingState state,
            String createdBy,
            Instant createdAt,
            Instant updatedAt,
            long version) {
        this(
                id, tenant, namespace, pool, flavor, resource, quantity, start, end, purpose, state, createdBy,
                createdAt, updatedAt, version, null, null);
    }

    /**
     * Whether this booking holds capacity at {@code instant}.
     *
     * @param instant the instant to check
     * @return true when its state holds capacity and {@code instant} is inside {@code [start, end)}
     */
    public boolean activeAt(Instant instant) {
        return state.holdsCapacity() && !instant.isBefore(start) && instant.isBefore(end);
    }

    /**
     * This booking in {@code newState}, reached at {@code at}, with the next version.
     *
     * @param newState the new lifecycle state
     * @param at       when it was reached
     * @return the changed copy
     */
    public Booking withState(BookingState newState, Instant at) {
        return new Booking(
                id,
                tenant,
                namespace,
                pool,
                flavor,
                resource,
                quantity,
                start,
                end,
                purpose,
                newState,
                createdBy,
                createdAt,
                at,
                version + 1,
                placement,
                seriesId);
    }

    /**
     * This booking with the window {@code [newStart, newEnd)}, changed at {@code at}, with the next version.
     *
     * @param newStart new inclusive start
     * @param newEnd   new exclusive end
     * @param at       when it changed
     * @return the changed copy
     */
    public Booking withWindow(Instant newStart, Instant newEnd, Instant at) {
        return new Booking(
                id,
                tenant,
                namespace,
                pool,
                flavor,
                resource,
                quantity,
                newStart,
                newEnd,
                purpose,
                state,
                createdBy,
                createdAt,
                at,
                version + 1,
                placement,
                seriesId);
    }

    /**
     * This booking as occurrence of the series {@code id}; the version is kept (it is part of the booking's creation).
     *
     * @param id the series id
     * @return the copy carrying it
     */
    public Booking inSeries(String id) {
        return new Booking(
                this.id, tenant, namespace, pool, flavor, resource, quantity, start, end, purpose, state, createdBy,
                createdAt, updatedAt, version, placement, id);
    }

    /**
     * This booking with its units at {@code newPlacement}, changed at {@code at}, with the next version.
     *
     * @param newPlacement where each unit sits now
     * @param at           when it moved
     * @return the changed copy
     */
    public Booking withPlacement(List<PlacedUnit> newPlacement, Instant at) {
        return new Booking(
                id,
                tenant,
                namespace,
                pool,
                flavor,
                resource,
                quantity,
                start,
                end,
                purpose,
                state,
                createdBy,
                createdAt,
                at,
                version + 1,
                newPlacement,
                seriesId);
    }
}
