package io.gpuaas.booking.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpuaas.booking.http.ProblemException;
import io.gpuaas.events.Json;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Forwards the dashboard's usage reads to metrics-gateway's ledger ({@code GET /api/v1/usage...}) with the caller's
 * own bearer token, so metrics-gateway scopes them to the caller's tenant exactly as for a direct call. A 4xx problem
 * of the ledger keeps its status, rule, field and detail (they are about the caller's request); anything else the
 * ledger answers, and any connection error or timeout, becomes a problem of booking-service's own with nothing of
 * the ledger's body.
 */
public final class LedgerForwarder {

    static final String CSV = "text/csv";
    static final int MAX_BODY_CHARS = 8 * 1024 * 1024;

    private static final Logger LOG = LoggerFactory.getLogger(LedgerForwarder.class);

    /** A successful answer: its body and whether it is CSV (else JSON). */
    public record Answer(String body, boolean csv) {}

    private final ServiceForward ledger;

    /** @param base metrics-gateway's base URL without a trailing slash, or null when usage is off */
    public LedgerForwarder(HttpClient http, String base, Duration timeout) {
        this.ledger = new ServiceForward(
                http,
                base,
                timeout,
                new ServiceForward.Problems(
                        () -> new ProblemException(
                                503, "LEDGER_UNAVAILABLE", null, "usage is not configured (gpuaas.booking.ledger-url)"),
                        LedgerForwarder::unavailable,
                        () -> new ProblemException(
                                504, "LEDGER_TIMEOUT", null, "the usage ledger did not answer in time")));
    }

    /**
     * The ledger's answer to {@code GET base + pathAndQuery}.
     *
     * @param pathAndQuery already encoded, starting with {@code /api/v1/usage}
     * @param csv          whether to ask for CSV ({@code Accept: text/csv}) instead of JSON
     */
    public Answer get(String pathAndQuery, boolean csv, CallerCredential credential) {
        HttpResponse<String> response = ledger.send(
                "GET", pathAndQuery, csv ? CSV : "application/json", credential, "usage read " + pathAndQuery);
        String type = response.headers().firstValue("Content-Type").orElse("");
        return answer(response.statusCode(), type, response.body(), pathAndQuery);
    }

    static Answer answer(int status, String contentType, String body, String what) {
        if (status == 200 && body.length() <= MAX_BODY_CHARS) {
            return new Answer(body, contentType.toLowerCase(Locale.ROOT).startsWith(CSV));
        }
        JsonNode problem = problem(contentType, body);
        String rule = problem == null ? null : text(problem, "rule");
        if (status >= 400 && status < 500 && status != 401 && rule != null) {
            ProblemException refused = new ProblemException(status, rule, text(problem, "field"), detail(problem));
            return throwWith(refused, problem);
        }
        if (status == 503 && "LEDGER_CATCHING_UP".equals(rule)) {
            throw new ProblemException(503, rule, null, "the usage ledger is still reading its topics, retry shortly")
                    .with(ProblemException.RETRY_AFTER_SECONDS, 5L);
        }
        LOG.warn("usage read {} answered {} by metrics-gateway", what, status);
        throw unavailable();
    }

    /** A 4xx problem keeps the members a client acts on (allowed values, a day limit), nothing else. */
    private static Answer throwWith(ProblemException refused, JsonNode problem) {
        for (String member : new String[] {"allowed", "maxDays"}) {
            JsonNode value = problem.get(member);
            if (value != null && !value.isNull()) {
                refused.with(member, value.isNumber() ? value.numberValue() : value.toString());
            }
        }
        throw refused;
    }

    private static JsonNode problem(String contentType, String body) {
        if (!contentType.toLowerCase(Locale.ROOT).contains("json") || body.length() > 16_384) {
            return null;
        }
        try {
            JsonNode node = Json.mapper().readTree(body);
            return node != null && node.isObject() ? node : null;
        } catch (IOException e) {
            return null;
        }
    }

    private static String text(JsonNode problem, String member) {
        JsonNode value = problem.get(member);
        return value == null || !value.isTextual() || value.asText().length() > 256 ? null : value.asText();
    }

    private static String detail(JsonNode problem) {
        String detail = text(problem, "detail");
        return detail == null ? "the usage ledger refused the request" : detail;
    }

    private static ProblemException unavailable() {
        return new ProblemException(502, "LEDGER_UNAVAILABLE", null, "the usage ledger could not be read, retry later");
    }
}
