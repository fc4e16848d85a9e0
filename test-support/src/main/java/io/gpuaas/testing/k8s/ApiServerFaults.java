package io.gpuaas.testing.k8s;

import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A fault switch for the in-memory API server: while {@link #failWrites} is on, every create, update, patch or delete
 * whose path starts with the given prefix is answered with the given status (503, 500, ...) and a Kubernetes
 * {@code Status} body, as an API server behind an unavailable admission webhook or etcd answers; reads and watches
 * go on. {@link #heal()} turns it off. Get it from {@link KubernetesApi#faults()}.
 */
public final class ApiServerFaults {

    private static final Set<String> WRITES = Set.of("POST", "PUT", "PATCH", "DELETE");

    private record Failing(int status, String pathPrefix) {}

    private volatile Failing failing;
    private final AtomicLong refused = new AtomicLong();

    ApiServerFaults() {}

    /**
     * From now on answers writes to paths starting with {@code pathPrefix} (e.g. {@code /apis/kueue.x-k8s.io/}, or
     * {@code /} for every write) with {@code status}.
     */
    public void failWrites(int status, String pathPrefix) {
        if (status < 400 || status > 599) {
            throw new IllegalArgumentException("a failing status is 4xx or 5xx, got " + status);
        }
        failing = new Failing(status, pathPrefix);
    }

    /** Writes go through again. */
    public void heal() {
        failing = null;
    }

    /** How many writes were refused since this API started. */
    public long refused() {
        return refused.get();
    }

    /** The failure answer for {@code request}, or null when it passes. */
    MockResponse answer(RecordedRequest request) {
        Failing now = failing;
        if (now == null
                || !WRITES.contains(request.getMethod().toUpperCase(Locale.ROOT))
                || !request.getPath().startsWith(now.pathPrefix())) {
            return null;
        }
        refused.incrementAndGet();
        String body = """
            {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",\
            "message":"injected fault: the API server refuses writes","reason":"%s","code":%d}""".formatted(now.status() == 503 ? "ServiceUnavailable" : "InternalError", now.status());
        return new MockResponse()
                .setResponseCode(now.status())
                .setHeader("Content-Type", "application/json")
                .setBody(body);
    }
}
