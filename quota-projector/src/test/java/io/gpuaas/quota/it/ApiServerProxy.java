package io.gpuaas.quota.it;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP relay between one replica and the API server. {@link #cut()} drops its connections and refuses new ones,
 * which is what the API server sees of a crashed or partitioned pod: its renewals stop and it cannot release the
 * Lease. {@link #heal()} lets the same replica through again, as when the partition ends.
 */
final class ApiServerProxy implements AutoCloseable {

    private final ServerSocket listener;
    private final int targetPort;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile boolean cut;

    ApiServerProxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().name("api-proxy-" + listener.getLocalPort()).start(this::acceptLoop);
    }

    String url() {
        return "http://127.0.0.1:" + listener.getLocalPort();
    }

    void cut() {
        cut = true;
        open.forEach(ApiServerProxy::closeQuietly);
    }

    void heal() {
        cut = false;
    }

    private void acceptLoop() {
        while (!listener.isClosed()) {
            try {
                relay(listener.accept());
            } catch (IOException e) {
                // listener closed: the loop ends
            }
        }
    }

    private void relay(Socket client) {
        if (cut) {
            closeQuietly(client);
            return;
        }
        try {
            Socket upstream = new Socket(InetAddress.getLoopbackAddress(), targetPort);
            open.add(client);
            open.add(upstream);
            pump(client, upstream);
            pump(upstream, client);
        } catch (IOException e) {
            closeQuietly(client);
        }
    }

    private void pump(Socket from, Socket to) {
        Thread.ofVirtual().start(() -> {
            try {
                from.getInputStream().transferTo(to.getOutputStream());
            } catch (IOException e) {
                // one side closed: both go
            } finally {
                open.remove(from);
                open.remove(to);
                closeQuietly(from);
                closeQuietly(to);
            }
        });
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already gone
        }
    }

    @Override
    public void close() throws IOException {
        cut();
        listener.close();
    }
}
