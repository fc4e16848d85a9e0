package io.gpuaas.booking.http;

import io.gpuaas.booking.kafka.BookingView;
import io.gpuaas.booking.kafka.IdempotencyKeys;
import io.gpuaas.booking.model.Rejection;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.Caller;
import jakarta.inject.Singleton;
import java.util.Optional;

/**
 * Which bookings a caller may see and act on at the edge, and the binding of an {@code Idempotency-Key} to a request
 * (per tenant scope). A tenant sees only its own bookings, an admin all; another tenant's booking is a 404, never a
 * 403, so its existence is not revealed.
 */
@Singleton
public class BookingAccess {

    private final BookingView view;
    private final IdempotencyKeys keys;

    public BookingAccess(BookingView view, IdempotencyKeys keys) {
        this.view = view;
        this.keys = keys;
    }

    /** The booking if {@code caller} may see it. */
    public Optional<Booking> find(String id, Caller caller) {
        return view.find(id).filter(b -> caller.admin() || b.tenant().equals(caller.tenant()));
    }

    /**
     * The booking a cancel, change or end acts on, with the idempotency key bound in the scope of the booking's tenant
     * (an admin acts for the owner). A 404 binds the key too, in the caller's own scope: the key was spent on it.
     */
    public Booking acting(String id, Caller caller, String key, String fingerprint) {
        Optional<Booking> booking = find(id, caller);
        if (booking.isEmpty()) {
            claim(IdempotencyKeys.scope(caller), key, fingerprint);
            throw notFound(id);
        }
        claim(IdempotencyKeys.scope(actorFor(caller, booking.get())), key, fingerprint);
        return booking.get();
    }

    /** The caller as it acts on {@code booking}: for the booking's tenant (an admin acts for the owner). */
    public static Caller actorFor(Caller caller, Booking booking) {
        return new Caller(caller.subject(), booking.tenant(), caller.admin());
    }

    /** 422 when the key was first used with another request: the answer to that one is not this one's. */
    public void claim(String scope, String key, String fingerprint) {
        if (!keys.claim(scope, key, fingerprint)) {
            throw new ProblemException(
                    422,
                    Rejection.IDEMPOTENCY_MISMATCH.name(),
                    "Idempotency-Key",
                    "this Idempotency-Key was already used with a different request (another method, path or "
                            + "body); use a new key for a new request");
        }
    }

    public static ProblemException notFound(String id) {
        return new ProblemException(
                404,
                "NOT_FOUND",
                "id",
                id.length() <= RequestValidator.MAX_ID ? "no booking " + id : "no booking with that id");
    }
}
