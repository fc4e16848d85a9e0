package io.gpuaas.local.services;

import io.gpuaas.events.KafkaPrincipal;
import java.util.List;

/**
 * One gpuaas service as the local stack runs it.
 *
 * @param name       service name (log file, --only)
 * @param module     Maven module folder under the repository root
 * @param mainClass  main class
 * @param portOffset offset of its HTTP port from the base port (booking 8080 + 0, …)
 * @param principal  the Kafka user it logs in as, with exactly that principal's ACLs
 */
public record ServiceSpec(String name, String module, String mainClass, int portOffset, KafkaPrincipal principal) {

    public static final List<ServiceSpec> ALL = List.of(
            new ServiceSpec(
                    "booking-service",
                    "booking-service",
                    "io.gpuaas.booking.BookingServiceApplication",
                    0,
                    KafkaPrincipal.BOOKING_SERVICE),
            new ServiceSpec(
                    "quota-projector",
                    "quota-projector",
                    "io.gpuaas.quota.QuotaProjectorApplication",
                    1,
                    KafkaPrincipal.QUOTA_PROJECTOR),
            new ServiceSpec(
                    "idle-reclaimer",
                    "idle-reclaimer",
                    "io.gpuaas.reclaim.IdleReclaimerApplication",
                    2,
                    KafkaPrincipal.IDLE_RECLAIMER),
            new ServiceSpec(
                    "metrics-gateway",
                    "metrics-gateway",
                    "io.gpuaas.metrics.MetricsGatewayApplication",
                    3,
                    KafkaPrincipal.METRICS_GATEWAY));
}
