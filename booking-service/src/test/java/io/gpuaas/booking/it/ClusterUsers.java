package io.gpuaas.booking.it;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * OpenShift's {@code GET /apis/user.openshift.io/v1/users/~} for the OAuth proxy's tokens: a known token's user and
 * groups, 401 for any other. fabric8's CRUD mock stores objects and cannot answer per bearer token.
 */
final class ClusterUsers implements AutoCloseable {

    private final Map<String, String> users = new ConcurrentHashMap<>();
    private final HttpServer server;

    ClusterUsers() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/apis/user.openshift.io/v1/users/~", exchange -> {
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

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    void user(String token, String name, List<String> groups) {
        String groupJson = groups.stream().map(g -> "\"" + g + "\"").collect(Collectors.joining(","));
        users.put(token, "{\"kind\":\"User\",\"metadata\":{\"name\":\"" + name + "\"},\"groups\":[" + groupJson + "]}");
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
