package io.gpuaas.booking.dashboard;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import io.gpuaas.booking.http.ProblemException;
import io.gpuaas.events.Json;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Forwards a "keep it" answer to idle-reclaimer's {@code POST /api/v1/workloads/{namespace}/{kind}/{name}/keep} with
 * the caller's own bearer token, as {@link ResumeForwarder} does for Resume: idle-reclaimer checks the tenant and
 * the bounds itself. Its answers map to the caller's problem+json by status; of a refusal beyond a bound only the
 * bound's numbers are passed on, nothing else of idle-reclaimer's body.
 */
public final class KeepForwarder {

    private static final Logger LOG = LoggerFactory.getLogger(KeepForwarder.class);

    private final ServiceForward reclaimer;

    /** @param base idle-reclaimer's base URL without a trailing slash, or null when it is not configured */
    public KeepForwarder(HttpClient http, String base, Duration timeout) {
        this.reclaimer = new ServiceForward(
                http,
                base,
                timeout,
                new ServiceForward.Problems(
                        () -> new ProblemException(
                                503, "KEEP_UNAVAILABLE", null, "keep is not configured (gpuaas.booking.reclaimer-url)"),
                        KeepForwarder::unavailable,
                        KeepForwarder::unavailable));
    }

    /** The reclaimer's JSON answer to an accepted keep; a {@link ProblemException} otherwise. */
    public String keep(String namespace, String kind, String name, int hours, CallerCredential credential) {
        String workload = namespace + "/" + kind + "/" + name;
        String path = "/api/v1/workloads/" + segment(namespace) + "/" + segment(kind) + "/" + segment(name) + "/keep";
        HttpResponse<String> response = reclaimer.send(
                "POST", path, "application/json", "{\"hours\":" + hours + "}", credential, "keep of " + workload);
        return answer(response.statusCode(), response.body(), workload);
    }

    static String answer(int status, String body, String workload) {
        return switch (status) {
            case 202 -> body;
            case 400 ->
                throw ProblemException.badRequest(
                        "KEEP_HOURS", "hours", "hours must be a whole number of at least 1 for " + workload);
            case 401, 403, 404 -> throw new ProblemException(404, "WORKLOAD_EXISTS", "name", workload + " not found");
            case 409, 422 -> throw beyond(status, body, workload);
            default -> {
                LOG.warn("keep of {} answered {} by idle-reclaimer", workload, status);
                throw unavailable();
            }
        };
    }

    /** Beyond a bound: its name and numbers only, read as plain values. */
    private static ProblemException beyond(int status, String body, String workload) {
        ProblemException problem = new ProblemException(
                status,
                "KEEP_BOUND",
                "hours",
                workload
                        + (status == 422
                                ? " cannot be kept that long in one answer"
                                : " has no keep hours left today"));
        try {
            JsonNode node = Json.mapper().readTree(body == null ? "" : body);
            if (node.path("maxHours").isInt()) {
                problem = problem.with("maxHours", node.path("maxHours").intValue());
            }
            if (node.path("hoursLeft").isInt()) {
                problem = problem.with("hoursLeft", node.path("hoursLeft").intValue());
            }
        } catch (JacksonException e) {
            LOG.debug("keep of {}: refusal without readable bounds", workload);
        }
        return problem.with("bound", status == 422 ? "per-answer" : "per-day");
    }

    private static ProblemException unavailable() {
        return new ProblemException(502, "RECLAIMER_UNAVAILABLE", null, "the keep could not be made, retry later");
    }

    private static String segment(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
