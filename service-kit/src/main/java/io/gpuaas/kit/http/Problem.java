package io.gpuaas.kit.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.gpuaas.events.Json;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MutableHttpResponse;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * An RFC 7807 problem as every gpuaas service answers it ({@code application/problem+json}): {@code type} derived
 * from the rule, {@code title} the status reason, {@code status}, {@code detail}, {@code instance} the request path,
 * {@code rule} the broken rule (UPPER_SNAKE), {@code field} what the rule is about, plus any extra members.
 * The body is rendered here, not by content negotiation, so it is the same on every path that produces one.
 *
 * @param field the request field, parameter or header the problem is about; null when none
 */
public record Problem(int status, String rule, @Nullable String field, String detail, Map<String, Object> extra) {

    public static final String MEDIA_TYPE = "application/problem+json";
    private static final String TYPE_BASE = "https://gpuaas.io/problems/";

    public Problem {
        extra = Map.copyOf(extra);
    }

    public static Problem of(HttpStatus status, String rule, @Nullable String field, String detail) {
        return new Problem(status.getCode(), rule, field, detail, Map.of());
    }

    /** This problem with one more member, e.g. the allowed values. */
    public Problem with(String member, Object value) {
        Map<String, Object> more = new LinkedHashMap<>(extra);
        more.put(member, value);
        return new Problem(status, rule, field, detail, more);
    }

    /** The JSON document; {@code instance} is the request path, or null. */
    public String json(@Nullable String instance) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", TYPE_BASE + rule.toLowerCase(Locale.ROOT).replace('_', '-'));
        body.put("title", HttpStatus.valueOf(status).getReason());
        body.put("status", status);
        body.put("detail", detail);
        if (instance != null) {
            body.put("instance", instance);
        }
        body.put("rule", rule);
        if (field != null) {
            body.put("field", field);
        }
        extra.forEach(body::putIfAbsent);
        try {
            return Json.mapper().writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render problem " + rule, e);
        }
    }

    /** A new response carrying this problem. */
    public MutableHttpResponse<String> response(@Nullable String instance) {
        return HttpResponse.<String>status(HttpStatus.valueOf(status))
                .contentType(MEDIA_TYPE)
                .body(json(instance));
    }
}
