package io.gpuaas.booking.stream;

import io.gpuaas.events.booking.BookingEvent;

/**
 * What one command led to, reported to metrics.
 *
 * @param pool   the pool decided on
 * @param answer the decision event (confirmed, rejected, ...)
 * @param nanos  time spent deciding and applying, excluding the Kafka round trip
 */
public record DecisionOutcome(String pool, BookingEvent answer, long nanos) {}
