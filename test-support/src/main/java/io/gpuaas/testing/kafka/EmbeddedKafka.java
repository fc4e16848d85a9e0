package io.gpuaas.testing.kafka;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;
import org.apache.kafka.common.network.ListenerName;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.apache.kafka.server.common.MetadataVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real single-node Kafka 4.1 broker (KRaft, combined broker+controller) running in this JVM,
 * built on {@link KafkaClusterTestKit}. Settings suit one node: internal topics with one replica,
 * {@code min.insync.replicas=1}, so idempotent/transactional producers and {@code exactly_once_v2}
 * Kafka Streams work.
 *
 * <p>Every listener takes SASL only and the {@code StandardAuthorizer} decides: the super user
 * {@link KafkaCredentials#ADMIN} (PLAIN, password from {@link Builder#adminPassword(String)} or random) sets
 * things up, every other user is a SCRAM-SHA-512 user created at run time ({@link KafkaBroker#userProperties})
 * and may do only what its ACLs allow. A client without credentials cannot connect. Only the bench starts one
 * {@linkplain Builder#withoutSecurity() without security}, to measure what security costs.
 *
 * <p>By default the broker listens on an ephemeral port. With {@link Builder#port(int)} it also
 * opens a listener on {@code 127.0.0.1:<port>} that external clients (kcat) can use; the
 * test kit binds its own listeners before the server starts, so the fixed port is an extra listener.
 */
public final class EmbeddedKafka implements KafkaBroker, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafka.class);
    /** Name of the extra fixed-port listener; the test kit's own listeners are EXTERNAL and CONTROLLER. */
    static final String FIXED_LISTENER = "LOCAL";

    private final KafkaClusterTestKit cluster;
    private final String bootstrapServers;
    private final String adminPassword;
    private final boolean secured;

    private EmbeddedKafka(KafkaClusterTestKit cluster, String bootstrapServers, String adminPassword, boolean secured) {
        this.cluster = cluster;
        this.bootstrapServers = bootstrapServers;
        this.adminPassword = adminPassword;
        this.secured = secured;
    }

    /** Starts a broker on an ephemeral port with a temporary data directory. */
    public static EmbeddedKafka start() {
        return builder().start();
    }

    public static Builder builder() {
        return new Builder();
    }

    @Override
    public String bootstrapServers() {
        return bootstrapServers;
    }

    @Override
    public String adminPassword() {
        return adminPassword;
    }

    @Override
    public boolean secured() {
        return secured;
    }

    /** The underlying test kit, for tests that need broker internals. */
    public KafkaClusterTestKit cluster() {
        return cluster;
    }

    @Override
    public void close() {
        try {
            cluster.close();
        } catch (Exception e) {
            LOG.warn("embedded kafka did not close cleanly", e);
        }
    }

    @Override
    public String toString() {
        return "EmbeddedKafka[" + bootstrapServers + "]";
    }

    /** Options for {@link EmbeddedKafka}. */
    public static final class Builder {
        private int port;
        private Path dataDir;
        private boolean loopbackOnly;
        private boolean deleteOnClose = true;
        private String adminPassword = KafkaCredentials.randomPassword();
        private boolean secured = true;
        private final Map<String, String> overrides = new LinkedHashMap<>();
        private final List<String> plainUsers = new ArrayList<>();

        private Builder() {}

        /**
         * Adds a PLAINTEXT listener on {@code 127.0.0.1:port} and makes it the bootstrap address.
         * 0 (the default) means ephemeral ports only.
         */
        public Builder port(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port out of range: " + port);
            }
            this.port = port;
            return this;
        }

        /**
         * Directory for the broker's logs and metadata; created if missing. Every start formats a
         * fresh log here (the previous run's node directories are deleted), so topics and records
         * do not survive a restart. Default: a new temp directory.
         */
        public Builder dataDir(Path dataDir) {
            this.dataDir = Objects.requireNonNull(dataDir, "dataDir");
            return this;
        }

        /** Whether {@link EmbeddedKafka#close()} deletes the data directory (default true). */
        public Builder deleteOnClose(boolean deleteOnClose) {
            this.deleteOnClose = deleteOnClose;
            return this;
        }

        /** The super user's password (default: random); the local stack writes it where its operator finds it. */
        public Builder adminPassword(String adminPassword) {
            this.adminPassword = Objects.requireNonNull(adminPassword, "adminPassword");
            return this;
        }

        /**
         * PLAINTEXT listeners and no authorizer: any client may do anything. For the bench only, which runs the same
         * measurement against a secured broker beside it to show what authentication and ACLs cost; never for a test
         * of a service (a missing ACL would go unnoticed) nor for the local stack.
         */
        public Builder withoutSecurity() {
            this.secured = false;
            return this;
        }

        /**
         * Lets {@code user} also log in with PLAIN (password {@link KafkaBroker#derivedPassword}, the same as its SCRAM
         * one), for clients whose SCRAM Kafka 4 rejects: librdkafka before 2.6.1 (Debian 12's kcat links 2.0.2) sends
         * a nonce the broker refuses. The user still gets only what its ACLs grant.
         */
        public Builder plainUser(String user) {
            plainUsers.add(Objects.requireNonNull(user, "user"));
            return this;
        }

        /**
         * Binds every listener, the kit's own included (which it otherwise binds on every interface), to 127.0.0.1:
         * for the local stack on a shared machine.
         */
        public Builder loopbackOnly() {
            this.loopbackOnly = true;
            return this;
        }

        /** Any broker property, e.g. {@code num.partitions}; wins over the defaults. */
        public Builder brokerProperty(String key, String value) {
            overrides.put(key, value);
            return this;
        }

        /** Formats storage, starts the broker and waits until it accepts clients. */
        public EmbeddedKafka start() {
            long started = System.nanoTime();
            KafkaClusterTestKit cluster = null;
            try {
                cluster = buildCluster();
                cluster.format();
                cluster.startup();
                cluster.waitForReadyBrokers();
                String bootstrap = port > 0 ? "127.0.0.1:" + port : cluster.bootstrapServers();
                LOG.info(
                        "embedded kafka ready on {} in {} ms{}",
                        bootstrap,
                        (System.nanoTime() - started) / 1_000_000,
                        secured ? "" : " (without security)");
                return new EmbeddedKafka(cluster, bootstrap, adminPassword, secured);
            } catch (Exception e) {
                closeQuietly(cluster);
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                throw new IllegalStateException(
                        "embedded kafka failed to start" + (port > 0 ? " (is 127.0.0.1:" + port + " free?)" : ""), e);
            }
        }

        private KafkaClusterTestKit buildCluster() throws Exception {
            SecurityProtocol protocol = secured ? SecurityProtocol.SASL_PLAINTEXT : SecurityProtocol.PLAINTEXT;
            TestKitNodes.Builder nodes = new TestKitNodes.Builder()
                    .setCombined(true)
                    .setNumBrokerNodes(1)
                    .setNumControllerNodes(1)
                    .setBrokerListenerName(new ListenerName("EXTERNAL"))
                    .setBrokerSecurityProtocol(protocol)
                    .setControllerSecurityProtocol(protocol)
                    // The kit defaults to the newest (testing) metadata version; pin what a release runs.
                    .setBootstrapMetadataVersion(MetadataVersion.latestProduction());
            if (dataDir != null) {
                Files.createDirectories(dataDir);
                removePreviousRun(dataDir);
                nodes.setBaseDirectory(dataDir);
            }
            TestKitNodes built = nodes.build();
            KafkaClusterTestKit.Builder kit = new KafkaClusterTestKit.Builder(built).setDeleteOnClose(deleteOnClose);
            if (loopbackOnly) {
                LoopbackListeners.prebind(kit, built);
            }
            BrokerDefaults.singleNode(port, protocol).forEach(kit::setConfigProp);
            if (secured) {
                BrokerDefaults.security(port, adminPassword, plainUsers).forEach(kit::setConfigProp);
            }
            overrides.forEach(kit::setConfigProp);
            return kit.build();
        }

        /**
         * The kit formats with a new cluster id each start and refuses a directory formatted for
         * another, so the node directories it left behind are removed first.
         */
        private static void removePreviousRun(Path dir) throws IOException {
            try (Stream<Path> children = Files.list(dir)) {
                for (Path node : children.filter(
                                p -> p.getFileName().toString().matches("(combined|broker|controller)_\\d+.*"))
                        .toList()) {
                    try (Stream<Path> tree = Files.walk(node)) {
                        for (Path p : tree.sorted(Comparator.reverseOrder()).toList()) {
                            Files.deleteIfExists(p);
                        }
                    }
                }
            }
        }

        private static void closeQuietly(KafkaClusterTestKit cluster) {
            if (cluster == null) {
                return;
            }
            try {
                cluster.close();
            } catch (Exception suppressed) {
                LOG.debug("cleanup after failed start", suppressed);
            }
        }
    }
}
