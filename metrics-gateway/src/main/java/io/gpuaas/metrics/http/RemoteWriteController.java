package io.gpuaas.metrics.http;

import io.gpuaas.kit.http.Problem;
import io.gpuaas.metrics.remotewrite.RemoteWriteReceiver;
import io.gpuaas.metrics.remotewrite.RemoteWriteRejection.Reason;
import io.gpuaas.metrics.remotewrite.WriteOutcome;
import io.micronaut.context.annotation.Requires;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Header;
import io.micronaut.http.annotation.Post;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.security.annotation.Secured;

/**
 * {@code POST /api/v1/write}: Prometheus remote-write 1.0 into {@code gpuaas.gpu-samples}. Writers hold the
 * remote-write writer role (or admin); reading {@code /metrics} does not let a scraper write, and tenants never may:
 * samples decide what the reclaimer scales to zero. 204 when written; 4xx problems Prometheus does not retry for a
 * request that cannot succeed; 503 (retried) when Kafka did not acknowledge in time. Every replica serves it.
 */
@Controller("/api/v1/write")
@Requires(property = "gpuaas.metrics-gateway.remote-write.enabled", notEquals = "false")
@Secured({"${gpuaas.metrics-gateway.remote-write.writer-role:metrics-writer}", "${gpuaas.security.admin-role:admin}"})
public class RemoteWriteController {

    private final RemoteWriteReceiver receiver;

    public RemoteWriteController(RemoteWriteReceiver receiver) {
        this.receiver = receiver;
    }

    // Any Content-Type reaches the method, so a wrong one is answered and counted by the receiver's rules.
    @Post(consumes = MediaType.ALL)
    @ExecuteOn(TaskExecutors.BLOCKING)
    public HttpResponse<?> write(
            @Body byte[] body,
            @Nullable @Header(HttpHeaders.CONTENT_ENCODING) String contentEncoding,
            @Nullable @Header(HttpHeaders.CONTENT_TYPE) String contentType,
            HttpRequest<?> request) {
        return switch (receiver.receive(contentEncoding, contentType, body)) {
            case WriteOutcome.Written written -> HttpResponse.noContent();
            case WriteOutcome.Refused refused ->
                Problem.of(
                                HttpStatus.valueOf(refused.reason().status()),
                                refused.reason().name(),
                                field(refused.reason()),
                                refused.detail())
                        .response(request.getPath());
            case WriteOutcome.Unavailable unavailable ->
                Problem.of(
                                HttpStatus.SERVICE_UNAVAILABLE,
                                "UNAVAILABLE",
                                null,
                                "the samples could not be written right now, retry later")
                        .response(request.getPath());
        };
    }

    private static String field(Reason reason) {
        return switch (reason) {
            case UNSUPPORTED_MEDIA_TYPE -> HttpHeaders.CONTENT_TYPE;
            case BODY_TOO_LARGE, NOT_SNAPPY, MALFORMED_PROTOBUF, INVALID_SERIES -> "body";
        };
    }
}
