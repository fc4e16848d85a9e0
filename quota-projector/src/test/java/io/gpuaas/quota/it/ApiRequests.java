package io.gpuaas.quota.it;

import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What the API server received, told apart by sender: each replica's client presents its own bearer token, so a
 * write by the follower shows up here whatever code path made it.
 */
final class ApiRequests {

    private final KubernetesMockServer server;
    private final List<RecordedRequest> seen = new ArrayList<>();

    ApiRequests(KubernetesMockServer server) {
        this.server = server;
    }

    /** A point in the log; the other methods count from one. */
    synchronized int mark() {
        drain();
        return seen.size();
    }

    /** Request lines of every create, update, patch or delete sent with {@code token} since {@code mark}. */
    synchronized List<String> writes(String token, int mark) {
        drain();
        return seen.subList(mark, seen.size()).stream()
                .filter(r -> from(r, token) && !"GET".equals(r.getMethod()))
                .map(RecordedRequest::getRequestLine)
                .toList();
    }

    /** How many reads of a path containing {@code pathPart} were sent with {@code token} since {@code mark}. */
    synchronized long reads(String token, String pathPart, int mark) {
        drain();
        return seen.subList(mark, seen.size()).stream()
                .filter(r -> from(r, token)
                        && "GET".equals(r.getMethod())
                        && r.getPath().contains(pathPart))
                .count();
    }

    private static boolean from(RecordedRequest request, String token) {
        return ("Bearer " + token).equals(request.getHeader("Authorization"));
    }

    private void drain() {
        try {
            RecordedRequest next;
            while ((next = server.takeRequest(1, TimeUnit.MILLISECONDS)) != null) {
                seen.add(next);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the request log", e);
        }
    }
}
