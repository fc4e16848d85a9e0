package io.gpuaas.testing.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ReadinessTest {

    private static final String UP = "{\"status\":\"UP\"}";
    private static final String RECOVERING = "{\"name\":\"svc\",\"status\":\"DOWN\",\"details\":{\"components\":"
            + "{\"status\":\"DOWN\",\"details\":{\"feed\":{\"state\":\"RECOVERING\",\"caughtUp\":false,"
            + "\"detail\":\"broker cut {off}\"},\"loop\":{\"state\":\"RUNNING\",\"caughtUp\":true}}}}}";

    /** What the server answers next, in order; the last one is repeated. */
    private final Queue<Object[]> script = new ConcurrentLinkedQueue<>();

    private final List<String> authorizations = new CopyOnWriteArrayList<>();
    private volatile Object[] last;
    private HttpServer server;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/health/readiness", exchange -> {
            Object[] next = script.poll();
            if (next != null) {
                last = next;
            }
            authorizations.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
            byte[] body = ((String) last[1]).getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders((Integer) last[0], body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void shouldReturnTheFirstUpAnswerWhenTheServiceBecomesReady() {
        answer(503, RECOVERING, 503, RECOVERING, 200, UP);

        Readiness.Answer up = readiness().awaitUp();

        assertThat(up.status()).isEqualTo(200);
        assertThat(authorizations).hasSize(3).containsOnly("null");
    }

    @Test
    void shouldNameTheStateOfAComponentWhenTheDetailsShowIt() {
        answer(200, UP, 503, RECOVERING);

        Readiness.Answer answer = readiness().withToken("sre-token").awaitComponent("feed", "RECOVERING");

        assertThat(answer.down()).isTrue();
        assertThat(answer.componentState("loop")).hasValue("RUNNING");
        assertThat(answer.componentState("absent")).isEmpty();
        assertThat(new Readiness.Answer(503, "not json").componentState("feed")).isEmpty();
        assertThat(authorizations).contains("Bearer sre-token");
    }

    @Test
    void shouldFailWithTheLastAnswerWhenTheDeadlinePasses() {
        answer(503, RECOVERING);

        assertThatThrownBy(() -> readiness().within(Duration.ofMillis(600)).awaitUp())
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("was not UP within PT0.6S")
                .hasMessageContaining("last: 503 " + RECOVERING);
    }

    @Test
    void shouldStartTheHoldAgainWhenTheConditionBreaksMeanwhile() {
        // DOWN, a false recovery, then DOWN for good: the hold counts from the last break.
        answer(503, RECOVERING, 503, RECOVERING, 200, UP, 503, RECOVERING);

        long started = System.nanoTime();
        Readiness.Answer down = readiness().awaitDownFor(Duration.ofMillis(700));

        assertThat(down.down()).isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(1_300));
        assertThat(authorizations)
                .as("the break, then two DOWN answers at least 700 ms apart")
                .hasSizeGreaterThanOrEqualTo(5);
    }

    @Test
    void shouldFailSayingThereWasNoAnswerWhenNothingListens() {
        server.stop(0);

        assertThatThrownBy(() -> readiness().within(Duration.ofMillis(300)).awaitUp())
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("last: no answer: java.net.ConnectException");
    }

    private Readiness readiness() {
        return Readiness.of(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/ignored"));
    }

    private void answer(Object... statusAndBody) {
        for (int i = 0; i < statusAndBody.length; i += 2) {
            script.add(new Object[] {statusAndBody[i], statusAndBody[i + 1]});
        }
    }
}
