package io.gpuaas.metrics.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;

/**
 * The GPU-hours ledger ({@code gpuaas.metrics-gateway.ledger.*}; DESIGN.md "Ledger"). The idle threshold and the
 * longest charged sample gap are the usage settings', so the ledger's busy and idle agree with the counters'.
 *
 * @param publish         whether the Lease holder publishes daily records on {@code gpuaas.usage-ledger}
 * @param publishInterval how often the Lease holder looks for days whose figures changed and publishes them
 * @param maxRangeDays    the widest {@code [from, to)} the usage API answers, in days
 * @param refresh         the longest the served ledger lags the records folded (its snapshot is rebuilt this often)
 * @param sealAfter       how long after a UTC day's end (in event time) it is sealed: published a last time and
 *                        served from {@code gpuaas.usage-ledger} by every replica; under the shortest input
 *                        retention (gpu-samples, 6 h)
 * @param cutLag          how far the published records' cut stays behind the latest event time: at least
 *                        {@code usage.max-gap} (a gap is charged when the device's next reading arrives) plus the
 *                        skew between inputs, and shorter than {@code sealAfter}; checked at start
 */
@ConfigurationProperties("gpuaas.metrics-gateway.ledger")
public record LedgerSettings(
        @Bindable(defaultValue = "true") boolean publish,
        @Bindable(defaultValue = "60s") Duration publishInterval,
        @Bindable(defaultValue = "366") int maxRangeDays,
        @Bindable(defaultValue = "5s") Duration refresh,
        @Bindable(defaultValue = "1h") Duration sealAfter,
        @Bindable(defaultValue = "5m") Duration cutLag) {}
