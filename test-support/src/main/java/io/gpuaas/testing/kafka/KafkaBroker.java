package io.gpuaas.testing.kafka;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * A running Kafka broker with authentication and ACLs on, as production runs: clients log in over SASL (the super
 * user with PLAIN, every other user with SCRAM-SHA-512) and the {@code StandardAuthorizer} allows only what an ACL
 * grants. {@link #clientProperties()} is the super user, for test setup; a service under test gets its own user and
 * exactly its ACLs through {@link #serviceProperties(String, Collection)}.
 */
public interface KafkaBroker {

    /** {@code host:port[,host:port]} for {@code bootstrap.servers}. */
    String bootstrapServers();

    /** The super user's password (see {@link KafkaCredentials#ADMIN}). */
    String adminPassword();

    /**
     * Whether clients authenticate and ACLs apply (always, but for the bench's broker started
     * {@link EmbeddedKafka.Builder#withoutSecurity() without security}: there every client has plain
     * {@code bootstrap.servers} only, and users and ACLs are not created).
     */
    default boolean secured() {
        return true;
    }

    /** Super-user client properties with {@code bootstrap.servers}. A new mutable map each call. */
    default Map<String, Object> clientProperties() {
        Map<String, Object> props = secured()
                ? new HashMap<>(KafkaCredentials.plain(KafkaCredentials.ADMIN, adminPassword()))
                : new HashMap<>();
        props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        return props;
    }

    /** A new Admin client of the super user; the caller closes it. */
    default Admin admin() {
        Map<String, Object> props = clientProperties();
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000);
        return Admin.create(props);
    }

    /**
     * Client properties (with {@code bootstrap.servers}) of the SCRAM-SHA-512 user {@code user}, created on first
     * use. The password is derived from the super user's, so asking again gives the same one and never changes the
     * credential under a running client. The user may do nothing until ACLs grant it something.
     */
    default Map<String, Object> userProperties(String user) {
        if (!secured()) {
            return clientProperties();
        }
        String password = derivedPassword(user);
        try (Admin admin = admin()) {
            admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion(
                            user, new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), password)))
                    .all()
                    .get(30, TimeUnit.SECONDS);
            // The credential reaches the broker through the metadata log; wait until the broker knows it.
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (admin.describeUserScramCredentials(List.of(user))
                    .all()
                    .get(30, TimeUnit.SECONDS)
                    .isEmpty()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("SCRAM credential of " + user + " never became visible");
                }
                Thread.sleep(50);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating Kafka user " + user, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("could not create Kafka user " + user, e);
        }
        Map<String, Object> props = new HashMap<>(KafkaCredentials.scram(user, password));
        props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        return props;
    }

    /** Creates {@code acls} and waits until the broker enforces them (ACLs travel through the metadata log). */
    default void createAcls(Collection<AclBinding> acls) {
        if (!secured()) {
            return;
        }
        try (Admin admin = admin()) {
            admin.createAcls(acls).all().get(30, TimeUnit.SECONDS);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (!new HashSet<>(
                            admin.describeAcls(AclBindingFilter.ANY).values().get(30, TimeUnit.SECONDS))
                    .containsAll(acls)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("ACLs never became visible: " + acls);
                }
                Thread.sleep(50);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating ACLs", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("could not create ACLs " + acls, e);
        }
    }

    /**
     * Deletes {@code acls} and waits until the broker no longer holds them: a fault switch for tests (cut a service's
     * access for a while, then give it back with {@link #createAcls}).
     */
    default void deleteAcls(Collection<AclBinding> acls) {
        if (!secured()) {
            return;
        }
        try (Admin admin = admin()) {
            admin.deleteAcls(acls.stream().map(AclBinding::toFilter).toList())
                    .all()
                    .get(30, TimeUnit.SECONDS);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (new HashSet<>(
                            admin.describeAcls(AclBindingFilter.ANY).values().get(30, TimeUnit.SECONDS))
                    .stream().anyMatch(acls::contains)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("ACLs never went away: " + acls);
                }
                Thread.sleep(50);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while deleting ACLs", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("could not delete ACLs " + acls, e);
        }
    }

    /**
     * What a gpuaas service under test needs to reach this broker as {@code user} with exactly {@code acls}:
     * Micronaut properties {@code gpuaas.kafka.bootstrap-servers} and {@code gpuaas.kafka.properties.*} (the SASL
     * settings every client of the service is given). Pass {@code KafkaAccess.acls(principal, prefix, appId)}.
     */
    default Map<String, Object> serviceProperties(String user, Collection<AclBinding> acls) {
        Map<String, Object> props = new HashMap<>();
        props.put("gpuaas.kafka.bootstrap-servers", bootstrapServers());
        serviceCredentials(user, acls).forEach((k, v) -> props.put("gpuaas.kafka.properties." + k, v));
        return props;
    }

    /**
     * The same for code under test that is wired by hand: creates {@code user} with exactly {@code acls} and returns
     * its SASL client settings ({@code security.protocol}, {@code sasl.mechanism}, {@code sasl.jaas.config}, without
     * {@code bootstrap.servers}), as a service's {@code KafkaSettings.properties} holds them and a Kafka Streams
     * configuration takes them.
     */
    default Map<String, String> serviceCredentials(String user, Collection<AclBinding> acls) {
        if (!secured()) {
            return Map.of();
        }
        createAcls(acls);
        Map<String, Object> client = userProperties(user);
        client.remove(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG);
        Map<String, String> credentials = new HashMap<>();
        client.forEach((k, v) -> credentials.put(k, String.valueOf(v)));
        return credentials;
    }

    /** The password {@link #userProperties} gives {@code user}: an HMAC of the name under the super user's password. */
    default String derivedPassword(String user) {
        return KafkaCredentials.derivedPassword(adminPassword(), user);
    }

    /**
     * Creates topics (1 replica) and waits until they exist. Topics that already exist are kept.
     *
     * @param partitions partitions per topic
     */
    default void createTopics(int partitions, String... names) {
        List<NewTopic> topics = Arrays.stream(names)
                .map(n -> new NewTopic(n, partitions, (short) 1))
                .toList();
        try (Admin admin = admin()) {
            for (var entry : admin.createTopics(topics).values().entrySet()) {
                try {
                    entry.getValue().get(30, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw new IllegalStateException("could not create topic " + entry.getKey(), e.getCause());
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topics", e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("timed out creating topics " + Arrays.toString(names), e);
        }
    }

    /**
     * A topic prefix no other caller in this JVM gets, shaped like the production one:
     * {@code t<n>.gpuaas.}. Pass it as {@code gpuaas.kafka.topic-prefix} so tests sharing the
     * broker never see each other's records.
     */
    default String uniquePrefix() {
        return "t" + UniqueNames.COUNTER.incrementAndGet() + ".gpuaas.";
    }

    /** A consumer group / application id no other caller in this JVM gets: {@code <base>-<n>}. */
    default String uniqueGroupId(String base) {
        return base + "-" + UniqueNames.COUNTER.incrementAndGet();
    }
}
