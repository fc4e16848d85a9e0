package io.gpuaas.booking.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.gpuaas.events.Json;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MutableHttpResponse;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** Renders RFC 7807 problem documents. */
public final class Problems {

    public static final String MEDIA_TYPE = "application/problem+json";
    private static final String TYPE_BASE = "https://gpuaas.io/problems/";

    private Problems() {
    }

    public static MutableHttpResponse<String> render(ProblemException problem, String instance) {
        return render(problem.status(), problem.rule(), problem.field(), problem.getMessage(), instance, problem.extra());
    }

    public static MutableHttpResponse<String> render(int status, String rule, String field, String detail,
                                                     String instance, Map<String, Object> extra) {
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
        body.putAll(extra);
        try {
            return HttpResponse.<String>status(HttpStatus.valueOf(status))
                    .contentType(MEDIA_TYPE)
                    .body(Json.mapper().writeValueAsString(body));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render problem " + rule, e);
        }
    }
}
