package io.gpuaas.booking.it;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.function.IntSupplier;

/**
 * A tenant's webhook receiver inside the test: a JDK HttpServer on loopback recording every request per path and
 * answering with what the path's responder says (a status, or blocking first to play a hanging endpoint).
 */
final class WebhookReceiver implements AutoCloseable {

    /** One request as received. */
    record Received(Map<String, String> headers, byte[] body, long nanos) {
        String header(String name) {
            return headers.get(name.toLowerCase(java.util.Locale.ROOT));
        }
    }

    private final HttpServer server;
    private final Map<String, List<Received>> received = new ConcurrentHashMap<>();

    WebhookReceiver() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.start();
    }

    /** Serves {@code path}, answering each request with the status {@code responder} gives (it may block). */
    String serve(String path, IntSupplier responder) {
        List<Received> list = received.computeIfAbsent(path, p -> new CopyOnWriteArrayList<>());
        server.createContext(path, exchange -> handle(exchange, list, responder));
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    List<Received> received(String path) {
        return received.getOrDefault(path, List.of());
    }

    private static void handle(HttpExchange exchange, List<Received> list, IntSupplier responder) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            Map<String, String> headers = new java.util.HashMap<>();
            exchange.getRequestHeaders()
                    .forEach((k, v) -> headers.put(k.toLowerCase(java.util.Locale.ROOT), String.join(",", v)));
            list.add(new Received(headers, body, System.nanoTime()));
            int status = responder.getAsInt();
            exchange.sendResponseHeaders(status, -1);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
