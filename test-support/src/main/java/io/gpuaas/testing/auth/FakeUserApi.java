package io.gpuaas.testing.auth;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * OpenShift's {@code users/~} as the proxy's token sees it: the user and groups of a known token, 401 for any
 * other (unknown, expired, revoked). Only this one path; fabric8's CRUD mock cannot answer per token. Point
 * {@code gpuaas.security.forwarded-identity.api-server} at {@link #url()}.
 */
public final class FakeUserApi implements AutoCloseable {

    /** The path service-kit's {@code OpenShiftUserLookup} asks. */
    static final String PATH = "/apis/user.openshift.io/v1/users/~";

    private final Map<String, String> users = new ConcurrentHashMap<>();
    private final AtomicInteger lookups = new AtomicInteger();
    private final HttpServer server;

    public FakeUserApi() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext(PATH, exchange -> {
            lookups.incrementAndGet();
            String auth = exchange.getRequestHeaders().getFirst("Authorization");
            String body = auth == null ? null : users.get(auth.replaceFirst("^Bearer ", ""));
            byte[] bytes =
                    (body == null ? "{\"kind\":\"Status\",\"code\":401}" : body).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(body == null ? 401 : 200, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        server.start();
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    public void user(String token, String name, List<String> groups) {
        String groupJson = groups.stream().map(g -> "\"" + g + "\"").collect(Collectors.joining(","));
        users.put(
                token,
                "{\"kind\":\"User\",\"apiVersion\":\"user.openshift.io/v1\",\"metadata\":{\"name\":\"" + name
                        + "\"},\"groups\":[" + groupJson + "]}");
    }

    public void revoke(String token) {
        users.remove(token);
    }

    public int lookups() {
        return lookups.get();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
