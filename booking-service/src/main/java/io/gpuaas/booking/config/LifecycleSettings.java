package io.gpuaas.booking.config;

import io.gpuaas.booking.model.LifecycleRules;
import io.gpuaas.events.pool.PoolCatalog;
import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;
import java.util.List;

/**
 * The booking lifecycle's notices and no-show release, under {@code gpuaas.booking.lifecycle}. A pool's own
 * {@code noShowGrace} in the pool catalog wins over {@code no-show-grace}.
 *
 * @param interval        how often the lifecycle looks at the active bookings: notices and releases come within one
 *                        interval (and the commit) of their time
 * @param endingSoonLeads how long before its end an ACTIVE booking gets a BookingEndingSoon, one per lead
 * @param noShowGrace     the no-show grace of a pool that names none; {@code PT0S} turns the release off
 * @param feedStaleness   no-show warnings and releases wait while quota-projector's newest FeedWatermark on
 *                        {@code gpuaas.kueue-workloads} is older than this (it writes one every 30 s); {@code PT0S}
 *                        turns the guard off
 */
@ConfigurationProperties("gpuaas.booking.lifecycle")
public record LifecycleSettings(
        @Bindable(defaultValue = "PT5S") Duration interval,
        @Bindable(defaultValue = "PT15M,PT5M") List<Duration> endingSoonLeads,
        @Bindable(defaultValue = "PT15M") Duration noShowGrace,
        @Bindable(defaultValue = "PT2M") Duration feedStaleness) {

    public LifecycleSettings {
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("gpuaas.booking.lifecycle.interval must be positive: " + interval);
        }
        endingSoonLeads = List.copyOf(endingSoonLeads);
    }

    /** The rules these settings describe over {@code pools}. */
    public LifecycleRules rules(PoolCatalog pools) {
        return new LifecycleRules(endingSoonLeads, pools, noShowGrace, feedStaleness);
    }
}
