package io.gpuaas.events.booking;

import java.time.Instant;

/**
 * A half-open time interval {@code [start, end)} with the units already taken on a pool during it.
 *
 * @param start    inclusive start
 * @param end      exclusive end
 * @param reserved units reserved during the whole interval
 */
public record Interval(Instant start, Instant end, int reserved) {}
