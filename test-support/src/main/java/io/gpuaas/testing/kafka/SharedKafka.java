package io.gpuaas.testing.kafka;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The one broker per JVM behind {@link KafkaBrokerExtension}; started on first use. */
final class SharedKafka {

    private static final Logger LOG = LoggerFactory.getLogger(SharedKafka.class);
    private static KafkaBroker broker;
    private static AutoCloseable closer;

    private SharedKafka() {}

    static synchronized KafkaBroker get() {
        if (broker == null) {
            start();
        }
        return broker;
    }

    static synchronized void close() {
        if (closer == null) {
            return;
        }
        try {
            closer.close();
        } catch (Exception e) {
            LOG.warn("shared kafka broker did not close cleanly", e);
        } finally {
            broker = null;
            closer = null;
        }
    }

    private static void start() {
        EmbeddedKafka embedded = EmbeddedKafka.start();
        broker = embedded;
        closer = embedded;
        LOG.info("shared test broker: {}", broker);
        // Callers outside JUnit (or a JVM killed before the engine finishes) still stop the broker.
        Runtime.getRuntime().addShutdownHook(new Thread(SharedKafka::close, "gpuaas-test-kafka-stop"));
    }
}
