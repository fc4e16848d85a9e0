package io.gpuaas.metrics.metrics;

import io.micronaut.context.annotation.Replaces;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Header;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.security.annotation.Secured;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * {@code GET /metrics} of metrics-gateway, replacing the service kit's controller with the same contract (roles
 * {@code metrics} or {@code admin}; Prometheus text 0.0.4, or OpenMetrics when {@code Accept} asks for it): the
 * shared registry (dead letters and anything else the kit registers) rendered by prometheus-metrics, followed by
 * the gateway's own families rendered by {@link Exposition}, which is what keeps 25,000 series under 100 ms.
 */
@Controller("/metrics")
@Replaces(io.gpuaas.kit.metrics.MetricsController.class)
@Secured({"${gpuaas.security.metrics-role:metrics}", "${gpuaas.security.admin-role:admin}"})
public class MetricsController {

    private static final String EOF = "# EOF\n";

    private final PrometheusRegistry registry;
    private final MetricsGatewayMetrics metrics;
    private final LedgerMetrics ledger;
    private final ExpositionFormats formats = ExpositionFormats.init();

    public MetricsController(PrometheusRegistry registry, MetricsGatewayMetrics metrics, LedgerMetrics ledger) {
        this.registry = registry;
        this.metrics = metrics;
        this.ledger = ledger;
    }

    // Explicit: without it Micronaut routes only JSON-accepting requests here, and a scraper asking for text or
    // OpenMetrics would fall through to the deny-by-default security rule (403).
    @Get(produces = {MediaType.TEXT_PLAIN, "application/openmetrics-text", MediaType.ALL})
    @ExecuteOn(TaskExecutors.BLOCKING)
    public HttpResponse<byte[]> scrape(@Nullable @Header(HttpHeaders.ACCEPT) String accept) throws IOException {
        boolean openMetrics = accept != null && accept.contains("application/openmetrics-text");
        return HttpResponse.ok(render(openMetrics)).header(HttpHeaders.CONTENT_TYPE, contentType(openMetrics));
    }

    /** The whole exposition: registry families first, then the gateway's, one {@code # EOF} for OpenMetrics. */
    public byte[] render(boolean openMetrics) throws IOException {
        ExpositionFormatWriter writer = writer(openMetrics);
        ByteArrayOutputStream shared = new ByteArrayOutputStream(4096);
        writer.write(shared, registry.scrape());
        String head = shared.toString(StandardCharsets.UTF_8);
        if (openMetrics && head.endsWith(EOF)) {
            head = head.substring(0, head.length() - EOF.length());
        }
        Exposition own = new Exposition(openMetrics, 1024);
        metrics.writeTo(own);
        ledger.writeTo(own);
        byte[] tail = own.toBytes();
        byte[] headBytes = head.getBytes(StandardCharsets.UTF_8);
        byte[] all = new byte[headBytes.length + tail.length];
        System.arraycopy(headBytes, 0, all, 0, headBytes.length);
        System.arraycopy(tail, 0, all, headBytes.length, tail.length);
        return all;
    }

    private ExpositionFormatWriter writer(boolean openMetrics) {
        return openMetrics ? formats.getOpenMetricsTextFormatWriter() : formats.getPrometheusTextFormatWriter();
    }

    private String contentType(boolean openMetrics) {
        return writer(openMetrics).getContentType();
    }
}
