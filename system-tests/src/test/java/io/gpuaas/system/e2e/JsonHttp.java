package io.gpuaas.system.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpuaas.events.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** JSON over HTTP with a bearer token, the way a tenant's script calls the services. */
final class JsonHttp {

    /**
     * One answer.
     *
     * @param status HTTP status
     * @param body   the parsed body, or a missing node when there was none
     * @param raw    the body as sent
     */
    record Answer(int status, JsonNode body, String raw) {}

    private final HttpClient client =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    Answer get(String url, String token) {
        return send(HttpRequest.newBuilder(URI.create(url)).GET(), token);
    }

    Answer post(String url, String token, Object body) {
        return send(HttpRequest.newBuilder(URI.create(url)).POST(json(body)), token);
    }

    Answer patch(String url, String token, Object body) {
        return send(HttpRequest.newBuilder(URI.create(url)).method("PATCH", json(body)), token);
    }

    private Answer send(HttpRequest.Builder request, String token) {
        request.timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json");
        try {
            HttpResponse<String> response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
            String raw = response.body();
            JsonNode body = raw == null || raw.isBlank()
                    ? Json.mapper().missingNode()
                    : Json.mapper().readTree(raw);
            return new Answer(response.statusCode(), body, raw);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static HttpRequest.BodyPublisher json(Object body) {
        try {
            return HttpRequest.BodyPublishers.ofString(Json.mapper().writeValueAsString(body));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
