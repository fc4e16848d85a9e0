package io.gpuaas.booking.model;

import java.time.LocalDate;

/**
 * The hours of "keep it" answers granted to one booking's workloads on one UTC day, all answers together: the pool
 * writer's state behind the per-booking-day bound ({@link KeepDecisions}). Only the latest day is kept; an answer on a
 * later day starts from zero.
 *
 * @param day   the UTC day of the last grant
 * @param hours the hours granted on {@code day}
 */
public record KeptHours(LocalDate day, int hours) {

    /** The hours granted on {@code on}: {@code hours} on the same day, none on any other. */
    public int on(LocalDate on) {
        return day.equals(on) ? hours : 0;
    }
}
