package io.gpuaas.kit.metrics;

import io.gpuaas.kit.config.SecuritySettings;
import io.gpuaas.kit.http.Problem;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Header;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.authentication.Authentication;
import io.micronaut.security.rules.SecurityRule;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;

/**
 * {@code GET /metrics}: the registry in Prometheus text format 0.0.4, or OpenMetrics when the scraper asks for it.
 * Readable with the {@code metrics} or {@code admin} role (names from {@link SecuritySettings}, so checked here
 * rather than in the annotation).
 */
@Controller("/metrics")
@Secured(SecurityRule.IS_AUTHENTICATED)
public class MetricsController {

    private final PrometheusRegistry registry;
    private final SecuritySettings security;
    private final ExpositionFormats formats = ExpositionFormats.init();

    public MetricsController(PrometheusRegistry registry, SecuritySettings security) {
        this.registry = registry;
        this.security = security;
    }

    @Get(produces = {"text/plain", "application/openmetrics-text"})
    @ExecuteOn(TaskExecutors.BLOCKING)
    public HttpResponse<?> scrape(Authentication authentication, @Nullable @Header(HttpHeaders.ACCEPT) String accept)
            throws IOException {
        var roles = authentication.getRoles();
        if (!roles.contains(security.metricsRole()) && !roles.contains(security.adminRole())) {
            return Problem.of(
                            HttpStatus.FORBIDDEN,
                            "ROLE_REQUIRED",
                            "Authorization",
                            "reading metrics needs the " + security.metricsRole() + " or " + security.adminRole()
                                    + " role")
                    .response("/metrics");
        }
        ExpositionFormatWriter writer = accept != null && accept.contains("application/openmetrics-text")
                ? formats.getOpenMetricsTextFormatWriter()
                : formats.getPrometheusTextFormatWriter();
        ByteArrayOutputStream out = new ByteArrayOutputStream(16 * 1024);
        writer.write(out, registry.scrape());
        return HttpResponse.ok(out.toByteArray()).header(HttpHeaders.CONTENT_TYPE, writer.getContentType());
    }
}
