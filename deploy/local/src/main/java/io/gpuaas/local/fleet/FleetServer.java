package io.gpuaas.local.fleet;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * One dcgm-exporter per node: {@code GET /metrics} on its own port (9400, 9401, … in the local stack, the way each
 * node's exporter listens on 9400 of its own IP). Each scrape renders the node as the {@link FleetState} holds it
 * then, so a flexible node's exporter serves its new MIG instances once a config is applied.
 */
public final class FleetServer implements AutoCloseable {

    private final List<HttpServer> servers = new ArrayList<>();
    private final List<String> urls = new ArrayList<>();
    private final List<String> targets = new ArrayList<>();
    private final ExecutorService executor = Executors.newFixedThreadPool(2, r -> {
        Thread thread = new Thread(r, "dcgm-exporter");
        thread.setDaemon(true);
        return thread;
    });

    /**
     * Starts one exporter per node of {@code fleet}; node i listens on {@code basePort + i}, or on an ephemeral
     * port when {@code basePort} is 0.
     */
    public FleetServer(
            FleetState fleet,
            int basePort,
            DcgmTextWriter writer,
            Supplier<Map<String, Attribution>> attributions,
            Clock clock)
            throws IOException {
        try {
            for (int i = 0; i < fleet.nodes().size(); i++) {
                String node = fleet.nodes().get(i).name();
                HttpServer server =
                        HttpServer.create(new InetSocketAddress("127.0.0.1", basePort == 0 ? 0 : basePort + i), 16);
                server.createContext(
                        "/metrics",
                        exchange -> serve(
                                exchange,
                                () -> writer.render(
                                        fleet.node(node).orElseThrow(), attributions.get(), clock.instant())));
                server.setExecutor(executor);
                server.start();
                servers.add(server);
                String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/metrics";
                urls.add(url);
                targets.add(node + "=" + url);
            }
        } catch (IOException e) {
            close();
            throw new IOException("cannot start the simulated dcgm-exporters from port " + basePort, e);
        }
    }

    /** Scrape URLs, one per node, in node order. */
    public List<String> urls() {
        return List.copyOf(urls);
    }

    /**
     * metrics-gateway's configured targets, {@code <node>=<url>} in node order: every exporter listens on 127.0.0.1
     * here, so only the name tells the gateway which node a scrape is of (discovery's {@code spec.nodeName} in a
     * cluster).
     */
    public List<String> targets() {
        return List.copyOf(targets);
    }

    private static void serve(HttpExchange exchange, Supplier<String> body) throws IOException {
        try (exchange) {
            if (!"GET".equals(exchange.getRequestMethod())) {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            byte[] bytes = body.get().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
            exchange.sendResponseHeaders(200, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    @Override
    public void close() {
        servers.forEach(server -> server.stop(0));
        executor.shutdownNow();
    }
}
