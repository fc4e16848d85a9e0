package io.gpuaas.booking.dashboard;

import io.gpuaas.booking.http.ProblemException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One request to another gpuaas service on the caller's behalf, with the caller's own credential so that service
 * checks the caller itself: the send-and-catch that {@link ResumeForwarder} and {@link LedgerForwarder} share. When
 * the service is not configured, cannot be reached or does not answer in time, the caller gets one of
 * booking-service's own problems; the connection error goes to the log only, never into the answer. What a service
 * answered is for the forwarder to map: only it knows which of that service's problems concern the caller.
 */
final class ServiceForward {

    /**
     * booking-service's own problems for a service it cannot use.
     *
     * @param off         no base URL is configured
     * @param unreachable the request could not be sent or its answer not read (and for anything else that fails)
     * @param timedOut    no answer within the timeout
     */
    record Problems(
            Supplier<ProblemException> off,
            Supplier<ProblemException> unreachable,
            Supplier<ProblemException> timedOut) {}

    private static final Logger LOG = LoggerFactory.getLogger(ServiceForward.class);

    private final HttpClient http;
    private final String base;
    private final Duration timeout;
    private final Problems problems;

    /** @param base the service's base URL without a trailing slash, or null when it is not configured */
    ServiceForward(HttpClient http, String base, Duration timeout, Problems problems) {
        this.http = http;
        this.base = base;
        this.timeout = timeout;
        this.problems = problems;
    }

    /**
     * Sends {@code method base + pathAndQuery} (no body) with the caller's credential; the service's answer, whatever
     * its status.
     *
     * @param pathAndQuery already encoded
     * @param what         the request in words for the log ("resume of team-a/RayCluster/r")
     */
    HttpResponse<String> send(
            String method, String pathAndQuery, String accept, CallerCredential credential, String what) {
        return send(method, pathAndQuery, accept, null, credential, what);
    }

    /** As {@link #send(String, String, String, CallerCredential, String)} with a JSON body (none when null). */
    HttpResponse<String> send(
            String method, String pathAndQuery, String accept, String json, CallerCredential credential, String what) {
        if (base == null) {
            throw problems.off().get();
        }
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(base + pathAndQuery))
                .timeout(timeout)
                .header(credential.header(), credential.value())
                .header("Accept", accept);
        if (json != null) {
            builder.header("Content-Type", "application/json");
        }
        HttpRequest request = builder.method(
                        method,
                        json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json))
                .build();
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (HttpTimeoutException e) {
            LOG.warn("{} timed out after {}", what, timeout);
            throw problems.timedOut().get();
        } catch (IOException e) {
            LOG.warn("{} not forwarded: {}", what, e.toString());
            throw problems.unreachable().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw problems.unreachable().get();
        }
    }
}
