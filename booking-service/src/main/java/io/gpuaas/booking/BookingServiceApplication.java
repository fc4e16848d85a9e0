package io.gpuaas.booking;

import io.gpuaas.events.CloudEvents;
import io.micronaut.runtime.Micronaut;
import io.swagger.v3.oas.annotations.OpenAPIDefinition;
import io.swagger.v3.oas.annotations.enums.SecuritySchemeType;
import io.swagger.v3.oas.annotations.info.Info;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.security.SecurityScheme;

/** Books GPUs and MIG slices over HTTP and in a web calendar; one Kafka Streams writer per pool decides. */
@OpenAPIDefinition(
        info =
                @Info(
                        title = "gpuaas-booking",
                        version = "1.0",
                        description =
                                "Book GPUs and MIG slices for a time window; never overbooked. Errors are RFC 7807 "
                                        + "application/problem+json naming the field and the rule."),
        security = @SecurityRequirement(name = "bearer"))
@SecurityScheme(name = "bearer", type = SecuritySchemeType.HTTP, scheme = "bearer", bearerFormat = "JWT")
public final class BookingServiceApplication {

    private BookingServiceApplication() {}

    public static void main(String[] args) {
        CloudEvents.setProcessSource("/gpuaas/booking-service");
        Micronaut.run(BookingServiceApplication.class, args);
    }
}
