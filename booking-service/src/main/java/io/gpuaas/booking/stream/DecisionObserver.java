package io.gpuaas.booking.stream;

import io.gpuaas.booking.model.BookingLedger.RestoreRefusal;

/** Told what the decision processor did: every decision, and every booking a rebuild could not place again. */
@FunctionalInterface
public interface DecisionObserver {

    /** One command decided. */
    void decided(DecisionOutcome outcome);

    /** A flexible booking the rebuild could not put back at its recorded units (already logged). */
    default void restoreRefused(RestoreRefusal refusal) {}
}
