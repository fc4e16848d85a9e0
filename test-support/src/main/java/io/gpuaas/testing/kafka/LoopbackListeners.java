package io.gpuaas.testing.kafka;

import java.io.IOException;
import java.lang.reflect.Field;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

/**
 * Binds the test kit's own listeners (the broker's {@code EXTERNAL}, the controller's {@code CONTROLLER}) to
 * loopback. The kit binds a socket for each of them on every interface before the node starts
 * ({@code PreboundSocketFactoryManager}, {@code new InetSocketAddress(0)}) and offers no setting for it; a socket
 * it finds already bound for a node and listener it uses as it is. So one bound to 127.0.0.1 is put there first.
 * Reflection into the kit (Kafka 4.1): a kit that changes fails here, loudly, not by binding wider.
 */
final class LoopbackListeners {

    private LoopbackListeners() {}

    static void prebind(KafkaClusterTestKit.Builder kit, TestKitNodes nodes) throws IOException {
        try {
            Object manager = field(kit, "socketFactoryManager");
            @SuppressWarnings("unchecked")
            Map<Integer, Map<String, ServerSocketChannel>> sockets =
                    (Map<Integer, Map<String, ServerSocketChannel>>) field(manager, "sockets");
            String broker = nodes.brokerListenerName().value();
            String controller = nodes.controllerListenerName().value();
            synchronized (manager) {
                for (int id : nodes.brokerNodes().keySet()) {
                    sockets.computeIfAbsent(id, k -> new HashMap<>()).put(broker, loopback());
                }
                for (int id : nodes.controllerNodes().keySet()) {
                    sockets.computeIfAbsent(id, k -> new HashMap<>()).put(controller, loopback());
                }
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot bind the Kafka test kit's listeners to loopback", e);
        }
    }

    /** Opened as the kit's socket factory opens its own (non-blocking: the acceptor selects on it), on loopback. */
    private static ServerSocketChannel loopback() throws IOException {
        ServerSocketChannel channel = ServerSocketChannel.open();
        channel.configureBlocking(false);
        channel.socket().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        return channel;
    }

    private static Object field(Object owner, String name) throws ReflectiveOperationException {
        Field field = owner.getClass().getDeclaredField(name);
        field.setAccessible(true);
        return field.get(owner);
    }
}
