package io.gpuaas.system.security;

import static io.gpuaas.testing.net.RawSockets.stillOpenAfter;
import static io.gpuaas.testing.net.RawSockets.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.local.services.ServiceReplica;
import io.gpuaas.system.reliability.support.HttpCalls;
import io.gpuaas.system.reliability.support.KafkaProbe;
import io.gpuaas.system.reliability.support.ReliabilityStack;
import io.gpuaas.testing.net.ListeningSockets;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The last holes an outside probe found at the edges (issue 26), replayed against the four services in their own
 * JVMs, as {@link AdversarialHttpIT} does (same stack): webhook URLs reaching inside through IPv6 forms of IPv4,
 * slow headers, framing and caching headers, an overlong query, and where the services listen. Each refusal is a
 * 4xx problem, the slow connections are closed, and nothing is dead-lettered.
 */
class AdversarialEdgeIT {

    private static final Pattern INTERNALS =
            Pattern.compile("io\\.gpuaas|io\\.micronaut|java\\.lang|com\\.fasterxml|\\$[A-Z]|Exception|\\tat ");

    private static ReliabilityStack stack;
    private static KafkaProbe kafka;
    private static int deadLettersBefore;

    @BeforeAll
    static void start() throws Exception {
        stack = ReliabilityStack.shared();
        stack.ensureAllHealthy(Duration.ofSeconds(180));
        kafka = stack.probe();
        deadLettersBefore = kafka.readAll("gpuaas.dead-letter").size();
    }

    @AfterAll
    static void nothingReachedTheDeadLetters() {
        if (kafka != null) {
            assertThat(kafka.readAll("gpuaas.dead-letter"))
                    .as("dead letters after the edge requests")
                    .hasSize(deadLettersBefore);
        }
    }

    @Test
    void shouldRefuseWebhookUrlsThatReachInsideThroughIpv6FormsOrBenchmarkingOrABadPort() {
        for (String url : List.of(
                "https://[64:ff9b::a9fe:a9fe]/", // NAT64 of the metadata address
                "https://[64:ff9b::a00:1]/", // NAT64 of 10.0.0.1
                "https://[64:ff9b:1::5db8:d822]/", // local-use NAT64: refused whatever it carries
                "https://[2002:a9fe:a9fe::1]/", // 6to4 of 169.254.169.254
                "https://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/", // Teredo, client 10.0.0.1
                "https://[2001:0:a9fe:a9fe::1]/", // Teredo, server 169.254.169.254
                "https://198.18.0.1/", // benchmarking
                "https://198.19.255.1/")) {
            problem(422, webhook("team-a", "{\"url\":\"" + url + "\"}"), url, "PRIVATE_ADDRESS");
        }
        problem(400, webhook("team-a", "{\"url\":\"https://93.184.216.34:99999/x\"}"), "port 99999", "INVALID_PORT");
        problem(400, webhook("team-a", "{\"url\":\"https://93.184.216.34:0/x\"}"), "port 0", "INVALID_PORT");
        problem(
                400,
                webhook("admin", "{\"url\":\"https://93.184.216.34/x\",\"tenant\":\"Team_A/../b\"}"),
                "admin tenant not a DNS-1123 label",
                "INVALID_NAME");
    }

    @Test
    void shouldAnswerAnOverlongQueryWith414() {
        HttpCalls.Response r = stack.http()
                .get(stack.url("booking-service") + "/api/v1/bookings?pool=" + "h".repeat(6000), stack.token("team-a"));
        problem(414, r, "6000-character query", "URI_TOO_LONG");
    }

    @Test
    void shouldForbidFramingAndSniffingEverywhereAndCachingOfApiAnswers() {
        String booking = stack.url("booking-service");
        HttpCalls.Response page = stack.http().get(booking + "/", null);
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.header("X-Frame-Options")).as("dashboard").isEqualTo("DENY");
        assertThat(page.header("Content-Security-Policy")).as("dashboard").contains("frame-ancestors 'none'");
        assertThat(page.header("X-Content-Type-Options")).as("dashboard").isEqualTo("nosniff");
        for (String service : ReliabilityStack.serviceNames()) {
            HttpCalls.Response health = stack.http().get(stack.url(service) + "/health", null);
            assertThat(health.header("X-Content-Type-Options")).as(service).isEqualTo("nosniff");
            assertThat(health.header("X-Frame-Options")).as(service).isEqualTo("DENY");
            assertThat(health.header("Cache-Control")).as(service).isEqualTo("no-store");
        }
        HttpCalls.Response api = stack.http().get(booking + "/api/v1/bookings", stack.token("team-a"));
        assertThat(api.status()).isEqualTo(200);
        assertThat(api.header("Cache-Control")).as("API answer").isEqualTo("no-store");
    }

    @Test
    void shouldCloseConnectionsThatTrickleHeadersPastTheDeadline() throws Exception {
        // The stack runs with a 2 s deadline (ServiceTuning); a header line every 500 ms never looks idle.
        URI booking = URI.create(stack.url("booking-service"));
        Set<Socket> open = new HashSet<>();
        for (int i = 0; i < 6; i++) {
            Socket socket = new Socket(booking.getHost(), booking.getPort());
            write(socket, "GET /api/v1/pools HTTP/1.1\r\nHost: x\r\n");
            open.add(socket);
        }
        long started = System.nanoTime();
        for (int line = 0; !open.isEmpty() && line < 16; line++) {
            Thread.sleep(500);
            String header = "X-Slow-" + line + ": 1\r\n";
            open.removeIf(socket -> !stillOpenAfter(socket, header));
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        assertThat(open)
                .as("connections still open after trickling headers for %.1f s", seconds)
                .isEmpty();
        assertThat(seconds).as("closed by the deadline, not at once").isGreaterThan(1.5);
    }

    @Test
    void shouldListenOnlyOnLoopbackInTheLocalStack() {
        for (ServiceReplica replica : stack.replicas()) {
            List<InetSocketAddress> listening = ListeningSockets.of(stack.pid(replica));
            assertThat(listening).as(replica.name()).isNotEmpty();
            assertThat(listening).as(replica.name()).allSatisfy(a -> assertThat(
                            a.getAddress().isLoopbackAddress())
                    .as(a.toString())
                    .isTrue());
        }
    }

    private static HttpCalls.Response webhook(String who, String body) {
        return stack.http()
                .send("POST", stack.url("booking-service") + "/api/v1/webhooks", stack.token(who), body, Map.of());
    }

    private static void problem(int status, HttpCalls.Response r, String what, String rule) {
        assertThat(r.status()).as("%s → %s", what, r.body()).isEqualTo(status);
        assertThat(r.header("Content-Type")).as(what).startsWith("application/problem+json");
        assertThat(r.body()).as(what).contains("\"rule\":\"" + rule + "\"", "\"title\"");
        assertThat(INTERNALS.matcher(r.body()).find())
                .as("%s leaks internals: %s", what, r.body())
                .isFalse();
    }
}
