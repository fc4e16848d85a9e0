package io.gpuaas.testing.kafka;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.SaslConfigs;

/**
 * Client settings for the embedded broker's two SASL mechanisms: PLAIN for its one super user (declared in the
 * broker's listener configuration, as a bootstrap identity must be) and SCRAM-SHA-512 for every other user, created
 * at run time through the Admin API like Strimzi's User Operator does in a cluster.
 */
public final class KafkaCredentials {

    /** The super user: creates topics, users and ACLs, and is the broker's own identity on its listeners. */
    public static final String ADMIN = "gpuaas-admin";
    /** The mechanism of every user but {@link #ADMIN}. */
    public static final String SCRAM = "SCRAM-SHA-512";

    private static final SecureRandom RANDOM = new SecureRandom();

    private KafkaCredentials() {
    }

    /** A new random password (192 bits, URL-safe base64). */
    public static String randomPassword() {
        byte[] bytes = new byte[24];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** {@code security.protocol}, {@code sasl.mechanism} and {@code sasl.jaas.config} of a SCRAM-SHA-512 user. */
    public static Map<String, Object> scram(String user, String password) {
        return sasl(SCRAM, "org.apache.kafka.common.security.scram.ScramLoginModule", user, password);
    }

    /** The same for the PLAIN super user. */
    static Map<String, Object> plain(String user, String password) {
        return sasl("PLAIN", "org.apache.kafka.common.security.plain.PlainLoginModule", user, password);
    }

    private static Map<String, Object> sasl(String mechanism, String module, String user, String password) {
        Map<String, Object> props = new HashMap<>();
        props.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT");
        props.put(SaslConfigs.SASL_MECHANISM, mechanism);
        props.put(SaslConfigs.SASL_JAAS_CONFIG, module + " required username=\"" + user + "\" password=\""
                + password + "\";");
        return props;
    }

    /**
     * The broker side of a listener's PLAIN login: the one user it accepts ({@code user_<name>="<password>"}), which
     * is also the identity the broker logs in with on that listener.
     */
    static String serverPlainJaas(String adminPassword) {
        return "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"" + ADMIN
                + "\" password=\"" + adminPassword + "\" user_" + ADMIN + "=\"" + adminPassword + "\";";
    }

    /** The broker side of a listener's SCRAM login: users come from the cluster metadata, not from here. */
    static String serverScramJaas() {
        return "org.apache.kafka.common.security.scram.ScramLoginModule required;";
    }
}
