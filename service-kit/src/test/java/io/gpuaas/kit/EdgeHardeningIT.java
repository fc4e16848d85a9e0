package io.gpuaas.kit;

import static io.gpuaas.testing.net.RawSockets.stillOpenAfter;
import static io.gpuaas.testing.net.RawSockets.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.testing.auth.TestJwt;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The edge against what a browser-side attacker or a slow client does: framing, sniffing and caching headers on
 * every answer, 414/431 for a request Netty refuses as too long, and a deadline for request headers (1 s here).
 */
class EdgeHardeningIT {

    private static final TestJwt JWT = TestJwt.generate();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static EmbeddedServer server;

    @BeforeAll
    static void start() throws IOException {
        Path jwks = JWT.writeJwks(Files.createTempFile("jwks", ".json"));
        Map<String, Object> properties = new HashMap<>(ServiceKitIT.edgeProperties(jwks));
        properties.put("gpuaas.kafka.bootstrap-servers", "127.0.0.1:1");
        properties.put("gpuaas.http.header-read-timeout", "1s");
        server = ApplicationContext.run(EmbeddedServer.class, properties);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void shouldForbidFramingAndSniffingOnEveryAnswerAndCachingOfApiAnswers() throws Exception {
        String caller = JWT.token("sre", "platform", List.of(), List.of("metrics"), Duration.ofMinutes(5));
        for (HttpResponse<String> api : List.of(get("/metrics", caller), get("/nowhere", null), get("/health", null))) {
            String what = api.uri() + " " + api.statusCode();
            assertThat(api.headers().firstValue("X-Content-Type-Options"))
                    .as(what)
                    .hasValue("nosniff");
            assertThat(api.headers().firstValue("X-Frame-Options")).as(what).hasValue("DENY");
            assertThat(api.headers().firstValue("Content-Security-Policy"))
                    .as(what)
                    .hasValue("frame-ancestors 'none'");
            assertThat(api.headers().firstValue("Cache-Control")).as(what).hasValue("no-store");
        }
        HttpResponse<String> asset = get("/assets/hello.txt", null);
        assertThat(asset.body()).isEqualTo("hello\n");
        assertThat(asset.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
        assertThat(asset.headers().firstValue("X-Frame-Options")).hasValue("DENY");
        assertThat(asset.headers().allValues("Cache-Control"))
                .as("a static file may be cached")
                .doesNotContain("no-store");
    }

    @Test
    void shouldAnswer414ForAnOverlongUriAnd431ForOverlargeHeadersAsProblems() throws Exception {
        HttpResponse<String> uri = get("/probe/count?n=" + "1".repeat(5000), null);
        assertThat(uri.statusCode()).as(uri.body()).isEqualTo(414);
        assertThat(uri.headers().firstValue("content-type")).hasValue("application/problem+json");
        assertThat(uri.body()).contains("\"rule\":\"URI_TOO_LONG\"", "\"field\":\"uri\"");
        assertThat(uri.headers().firstValue("X-Frame-Options")).hasValue("DENY");

        HttpRequest big = HttpRequest.newBuilder(URI.create(server.getURI() + "/health"))
                .header("X-Padding", "p".repeat(10_000))
                .build();
        HttpResponse<String> headers = HTTP.send(big, HttpResponse.BodyHandlers.ofString());
        assertThat(headers.statusCode()).as(headers.body()).isEqualTo(431);
        assertThat(headers.body()).contains("\"rule\":\"HEADERS_TOO_LARGE\"");
    }

    @Test
    void shouldCloseConnectionsThatTrickleHeadersPastTheDeadline() throws Exception {
        Set<Socket> open = new HashSet<>();
        for (int i = 0; i < 5; i++) {
            Socket socket = new Socket(server.getHost(), server.getPort());
            write(socket, "GET /health HTTP/1.1\r\nHost: x\r\n");
            open.add(socket);
        }
        long started = System.nanoTime();
        for (int line = 0; !open.isEmpty() && line < 16; line++) {
            Thread.sleep(250);
            String header = "X-Slow-" + line + ": 1\r\n";
            open.removeIf(socket -> !stillOpenAfter(socket, header));
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        assertThat(open)
                .as("connections still open after trickling headers for %.1f s", seconds)
                .isEmpty();
        assertThat(seconds).as("closed by the 1 s deadline, not at once").isGreaterThan(0.7);
    }

    @Test
    void shouldKeepAnIdleKeptAliveConnectionOpenPastTheHeaderDeadline() throws Exception {
        try (Socket socket = new Socket(server.getHost(), server.getPort())) {
            socket.setSoTimeout(5000);
            write(socket, "GET /assets/hello.txt HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(readHead(socket.getInputStream())).startsWith("HTTP/1.1 200");
            Thread.sleep(1500);
            write(socket, "GET /assets/hello.txt HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(readHead(socket.getInputStream())).startsWith("HTTP/1.1 200");
        }
    }

    private static HttpResponse<String> get(String path, String token) throws Exception {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(server.getURI() + path));
        if (token != null) {
            builder.header("Authorization", "Bearer " + token);
        }
        return HTTP.send(builder.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Reads a response's head and body (a small JSON body) as text, up to the end of what the server sent. */
    private static String readHead(InputStream in) throws IOException {
        byte[] buffer = new byte[4096];
        int n = in.read(buffer);
        return n < 0 ? "" : new String(buffer, 0, n, StandardCharsets.ISO_8859_1);
    }
}
