package io.gpuaas.booking.dashboard;

import io.gpuaas.booking.http.ProblemException;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Forwards a Resume to idle-reclaimer's {@code POST /api/v1/workloads/{namespace}/{kind}/{name}/resume} with the
 * caller's own bearer token, so idle-reclaimer checks the tenant exactly as for a direct call. Its answers map to the
 * caller's problem+json by status only: nothing of idle-reclaimer's body or of a connection error reaches the caller.
 */
public final class ResumeForwarder {

    private static final Logger LOG = LoggerFactory.getLogger(ResumeForwarder.class);

    private final ServiceForward reclaimer;

    /** @param base idle-reclaimer's base URL without a trailing slash, or null when Resume is off */
    public ResumeForwarder(HttpClient http, String base, Duration timeout) {
        this.reclaimer = new ServiceForward(
                http,
                base,
                timeout,
                new ServiceForward.Problems(
                        () -> new ProblemException(
                                503,
                                "RESUME_UNAVAILABLE",
                                null,
                                "resume is not configured (gpuaas.booking.reclaimer-url)"),
                        ResumeForwarder::unavailable,
                        ResumeForwarder::unavailable));
    }

    /** The reclaimer's JSON answer to a successful resume; a {@link ProblemException} otherwise. */
    public String resume(String namespace, String kind, String name, CallerCredential credential) {
        String workload = namespace + "/" + kind + "/" + name;
        String path = "/api/v1/workloads/" + segment(namespace) + "/" + segment(kind) + "/" + segment(name) + "/resume";
        HttpResponse<String> response =
                reclaimer.send("POST", path, "application/json", credential, "resume of " + workload);
        return answer(response.statusCode(), response.body(), workload);
    }

    static String answer(int status, String body, String workload) {
        return switch (status) {
            case 200 -> body;
            case 400 ->
                throw ProblemException.badRequest("INVALID_WORKLOAD", "name", "not a workload name: " + workload);
            case 401, 403, 404 -> throw new ProblemException(404, "WORKLOAD_EXISTS", "name", workload + " not found");
            case 409 -> throw new ProblemException(409, "MUST_BE_RECLAIMED", "name", workload + " is not reclaimed");
            case 429 ->
                throw new ProblemException(429, "RATE_LIMITED", null, "too many resumes, retry shortly")
                        .with(ProblemException.RETRY_AFTER_SECONDS, 1L);
            default -> {
                LOG.warn("resume of {} answered {} by idle-reclaimer", workload, status);
                throw unavailable();
            }
        };
    }

    private static ProblemException unavailable() {
        return new ProblemException(502, "RECLAIMER_UNAVAILABLE", null, "the resume could not be made, retry later");
    }

    private static String segment(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
