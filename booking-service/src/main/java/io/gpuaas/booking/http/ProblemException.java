package io.gpuaas.booking.http;

import io.gpuaas.kit.http.Problem;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.MutableHttpResponse;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An error to answer as RFC 7807 {@code application/problem+json}: the status, the rule that was broken and the
 * request field it concerns, plus any extra members (conflicts, earliest start).
 */
public final class ProblemException extends RuntimeException {

    /** The extra member naming whole seconds to wait before a retry. */
    public static final String RETRY_AFTER_SECONDS = "retryAfterSeconds";

    private final int status;
    private final String rule;
    private final String field;
    private final Map<String, Object> extra = new LinkedHashMap<>();

    public ProblemException(int status, String rule, String field, String detail) {
        super(detail);
        this.status = status;
        this.rule = rule;
        this.field = field;
    }

    public ProblemException with(String name, Object value) {
        if (value != null) {
            extra.put(name, value);
        }
        return this;
    }

    public int status() {
        return status;
    }

    public String rule() {
        return rule;
    }

    public String field() {
        return field;
    }

    /**
     * The response carrying this problem, rendered by the kit's {@link Problem} like every other service's; a
     * {@value #RETRY_AFTER_SECONDS} member is also sent as the {@code Retry-After} header clients and proxies honour.
     */
    public MutableHttpResponse<String> response(String instance) {
        MutableHttpResponse<String> response = new Problem(status, rule, field, getMessage(), extra).response(instance);
        Object retryAfter = extra.get(RETRY_AFTER_SECONDS);
        if (retryAfter != null) {
            response.header(HttpHeaders.RETRY_AFTER, retryAfter.toString());
        }
        return response;
    }

    public Map<String, Object> extra() {
        return extra;
    }

    public static ProblemException badRequest(String rule, String field, String detail) {
        return new ProblemException(400, rule, field, detail);
    }

    /** A 400 for a field a shared check (e.g. {@code KubernetesNames}) refused, with its rule, field and detail. */
    public static ProblemException badRequest(Problem problem) {
        return badRequest(problem.rule(), problem.field(), problem.detail());
    }
}
