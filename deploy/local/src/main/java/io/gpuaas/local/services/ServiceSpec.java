package io.gpuaas.local.services;

import java.util.List;

/**
 * One gpuaas service as the local stack runs it.
 *
 * @param name      service name (log file, --only)
 * @param module    Maven module folder under the repository root
 * @param mainClass main class
 * @param portOffset offset of its HTTP port from the base port (booking 8080 + 0, …)
 */
public record ServiceSpec(String name, String module, String mainClass, int portOffset) {

    public static final List<ServiceSpec> ALL = List.of(
            new ServiceSpec("booking-service", "booking-service", "io.gpuaas.booking.BookingServiceApplication", 0),
            new ServiceSpec("quota-projector", "quota-projector", "io.gpuaas.quota.QuotaProjectorApplication", 1),
            new ServiceSpec("idle-reclaimer", "idle-reclaimer", "io.gpuaas.reclaim.IdleReclaimerApplication", 2),
            new ServiceSpec("metrics-gateway", "metrics-gateway", "io.gpuaas.metrics.MetricsGatewayApplication", 3));
}
