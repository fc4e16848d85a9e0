package io.gpuaas.system.reliability.support;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Plain HTTP calls; a refused or reset connection is status 0 so callers can tell "down" from an answer. */
public final class HttpCalls {

    /** Status 0 = no answer (connection refused, reset, timeout); {@code error} says which. */
    public record Response(int status, String body, String error, Map<String, List<String>> headers) {

        public Response(int status, String body, String error) {
            this(status, body, error, Map.of());
        }

        public boolean answered() {
            return status > 0;
        }

        /** The first value of a response header (case-insensitive), or null. */
        public String header(String name) {
            return headers.entrySet().stream()
                    .filter(h ->
                            h.getKey().equalsIgnoreCase(name) && !h.getValue().isEmpty())
                    .map(h -> h.getValue().getFirst())
                    .findFirst()
                    .orElse(null);
        }
    }

    private final HttpClient client = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(2))
            .version(HttpClient.Version.HTTP_1_1)
            .build();

    public Response get(String url, String token) {
        return send("GET", url, token, null, Map.of());
    }

    public Response send(String method, String url, String token, String body, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(15))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        if (body != null && !headers.containsKey("Content-Type")) {
            request.header("Content-Type", "application/json");
        }
        headers.forEach(request::header);
        return send(request.build());
    }

    public Response send(HttpRequest request) {
        try {
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            return new Response(
                    response.statusCode(),
                    response.body(),
                    null,
                    response.headers().map());
        } catch (IOException e) {
            return new Response(0, "", e.getClass().getSimpleName() + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Response(0, "", "interrupted");
        }
    }
}
