package io.gpuaas.testing.health;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * A service's {@code /health/readiness} as Kubernetes' probe sees it (200 UP, 503 DOWN) and, given a token with the
 * admin or metrics role, as an SRE reads it (the {@code components} check names each component's state). Every wait
 * polls until a deadline and fails with the last answer, so a test that times out says what the service said.
 *
 * <p>A plain poll loop rather than Awaitility: Awaitility fails a wait on another thread's uncaught exception by
 * default, and the fault tests provoke exactly such exceptions (a Kafka Streams thread that is replaced).
 */
public final class Readiness {

    /** How long a wait lasts unless {@link #within(Duration)} says otherwise. */
    public static final Duration DEFAULT_DEADLINE = Duration.ofSeconds(60);

    private static final Duration POLL = Duration.ofMillis(200);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(REQUEST_TIMEOUT).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI uri;
    private final String token;
    private final Duration deadline;

    private Readiness(URI uri, String token, Duration deadline) {
        this.uri = uri;
        this.token = token;
        this.deadline = deadline;
    }

    /** The readiness of the service at {@code base} ({@code http://host:port}, any path is replaced), anonymously. */
    public static Readiness of(URI base) {
        return new Readiness(base.resolve("/health/readiness"), null, DEFAULT_DEADLINE);
    }

    /** The readiness of the service listening on {@code port} of this machine. */
    public static Readiness onPort(int port) {
        return of(URI.create("http://localhost:" + port));
    }

    /** Asks with this bearer token; with the admin or metrics role the answers carry each component's state. */
    public Readiness withToken(String bearerToken) {
        return new Readiness(uri, bearerToken, deadline);
    }

    /** Waits at most {@code newDeadline} per wait. */
    public Readiness within(Duration newDeadline) {
        return new Readiness(uri, token, newDeadline);
    }

    /** One answer, now. */
    public Answer read() throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(REQUEST_TIMEOUT);
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        return new Answer(response.statusCode(), response.body());
    }

    /** Waits until readiness is UP; the answer that was. */
    public Answer awaitUp() {
        return await("UP", Answer::up);
    }

    /** Waits until readiness is DOWN; the answer that was. */
    public Answer awaitDown() {
        return await("DOWN", Answer::down);
    }

    /** Waits until readiness is UP and stays UP for {@code hold} without a break. */
    public Answer awaitUpFor(Duration hold) {
        return awaitSteady("UP", Answer::up, hold);
    }

    /** Waits until readiness is DOWN and stays DOWN for {@code hold} without a break (no false recovery meanwhile). */
    public Answer awaitDownFor(Duration hold) {
        return awaitSteady("DOWN", Answer::down, hold);
    }

    /** Waits until the details name {@code component} in {@code state} (needs a token that may read details). */
    public Answer awaitComponent(String component, String state) {
        return await(
                component + " " + state,
                a -> a.componentState(component).filter(state::equals).isPresent());
    }

    /** Waits until {@code condition} holds for an answer; {@code expectation} says what it waits for on failure. */
    public Answer await(String expectation, Predicate<Answer> condition) {
        return awaitSteady(expectation, condition, Duration.ZERO);
    }

    /**
     * Waits until {@code condition} has held for {@code hold} without a break (every answer meanwhile met it), all
     * within the deadline; the last answer.
     */
    public Answer awaitSteady(String expectation, Predicate<Answer> condition, Duration hold) {
        long end = System.nanoTime() + deadline.toNanos();
        long heldSince = -1;
        String last = "no answer yet";
        while (true) {
            long now = System.nanoTime();
            try {
                Answer answer = read();
                last = answer.toString();
                if (!condition.test(answer)) {
                    heldSince = -1;
                } else if (heldSince < 0) {
                    heldSince = now;
                }
                if (heldSince >= 0 && now - heldSince >= hold.toNanos()) {
                    return answer;
                }
            } catch (IOException e) {
                heldSince = -1;
                last = "no answer: " + e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for readiness " + expectation + " at " + uri, e);
            }
            if (now - end >= 0) {
                String held = hold.isZero() ? "" : " for " + hold;
                throw new AssertionError("readiness at %s was not %s%s within %s; last: %s"
                        .formatted(uri, expectation, held, deadline, last));
            }
            pause();
        }
    }

    private static void pause() {
        try {
            Thread.sleep(POLL);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for readiness", e);
        }
    }

    /** One answer of {@code /health/readiness}: its status and body. */
    public record Answer(int status, String body) {

        public boolean up() {
            return status == 200;
        }

        public boolean down() {
            return status == 503;
        }

        /**
         * The state ({@code RUNNING}, {@code RECOVERING}, ...) the details give for {@code component}; empty when the
         * body names no such component (or shows no details to this caller).
         */
        public Optional<String> componentState(String component) {
            JsonNode tree;
            try {
                tree = JSON.readTree(body);
            } catch (IOException e) {
                return Optional.empty();
            }
            if (tree == null) {
                return Optional.empty();
            }
            return tree.findValues(component).stream()
                    .map(c -> c.path("state"))
                    .filter(JsonNode::isTextual)
                    .map(JsonNode::asText)
                    .findFirst();
        }

        @Override
        public String toString() {
            return status + " " + body;
        }
    }
}
