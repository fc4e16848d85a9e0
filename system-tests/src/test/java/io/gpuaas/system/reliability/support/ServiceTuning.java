package io.gpuaas.system.reliability.support;

import java.util.HashMap;
import java.util.Map;

/**
 * Settings the suite changes from each service's defaults, so that what takes minutes in production (15-minute
 * booking alignment, a 15-minute idle window, a 15-second lease, a 45-second consumer session) happens within a
 * bounded test. Nothing here turns a safety check off.
 */
final class ServiceTuning {

    private ServiceTuning() {}

    static Map<String, String> of(String service) {
        Map<String, String> tuning = new HashMap<>(
                switch (service) {
                    // Bookings may start a few seconds ahead; the load may exceed the per-tenant request rate.
                    case "booking-service" ->
                        Map.of(
                                "gpuaas.booking.alignment",
                                "PT1S",
                                "gpuaas.booking.http.requests-per-second",
                                "1000",
                                "gpuaas.booking.http.burst",
                                "1000");
                    // A killed leader's Lease is taken over within seconds; a cancelled booking drains quickly.
                    case "quota-projector" ->
                        Map.of(
                                "gpuaas.leader-election.lease-duration",
                                "6s",
                                "gpuaas.leader-election.renew-deadline",
                                "4s",
                                "gpuaas.leader-election.retry-period",
                                "1s",
                                "gpuaas.quota.drain-timeout",
                                "5s");
                    // A 16-second idle window over 2-second samples, after a 4-second warm-up; 75% coverage because on
                    // two
                    // busy cores two scrapes sometimes land in one slot (the e2e scenario does the same).
                    case "idle-reclaimer" ->
                        Map.of(
                                "gpuaas.reclaimer.policy.window",
                                "16s",
                                "gpuaas.reclaimer.policy.sample-interval",
                                "2s",
                                "gpuaas.reclaimer.policy.warm-up",
                                "4s",
                                "gpuaas.reclaimer.policy.min-coverage",
                                "0.75");
                    // A killed gateway leader's scrapes and rollups move to the other replica within seconds too.
                    case "metrics-gateway" ->
                        Map.of(
                                "gpuaas.metrics-gateway.scrape.interval",
                                "2s",
                                "gpuaas.leader-election.lease-duration",
                                "6s",
                                "gpuaas.leader-election.renew-deadline",
                                "4s",
                                "gpuaas.leader-election.retry-period",
                                "1s");
                    default -> Map.of();
                });
        if (service.equals("booking-service") || service.equals("idle-reclaimer")) {
            // A killed replica's Kafka Streams tasks move to the other replica once the group coordinator drops it,
            // after the consumer session timeout: 45 s by default, 10 s here (the broker allows 6 s and more).
            tuning.put("gpuaas.kafka.properties.session.timeout.ms", "10000");
            tuning.put("gpuaas.kafka.properties.heartbeat.interval.ms", "3000");
        }
        // A short header-read deadline, so the adversarial slow-header test takes seconds (10 s by default).
        tuning.put("gpuaas.http.header-read-timeout", "2s");
        return tuning;
    }
}
