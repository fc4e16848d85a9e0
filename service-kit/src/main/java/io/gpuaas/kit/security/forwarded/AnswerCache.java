package io.gpuaas.kit.security.forwarded;

import io.gpuaas.kit.security.forwarded.UserLookup.Answer;
import io.gpuaas.kit.security.forwarded.UserLookup.Unavailable;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The API server's answer per token for {@code ttl}, so a page's burst of calls costs one lookup. Keyed by the
 * token's SHA-256, so the tokens themselves are never held. A refusal is kept as long as a user (a replayed bad
 * token costs nothing); no answer is never kept. A token revoked at the API server works here until its entry
 * expires: that is what the TTL bounds.
 */
final class AnswerCache {

    /** Beyond this many live tokens the expired ones go, and if none did, all do: memory stays bounded. */
    static final int MAX_ENTRIES = 10_000;

    private record Cached(Answer answer, Instant until) {}

    private final UserLookup lookup;
    private final Duration ttl;
    private final Clock clock;
    private final Map<String, Cached> answers = new ConcurrentHashMap<>();

    AnswerCache(UserLookup lookup, Duration ttl, Clock clock) {
        this.lookup = lookup;
        this.ttl = ttl;
        this.clock = clock;
    }

    CompletableFuture<Answer> answer(String token) {
        String key = hash(token);
        Cached cached = answers.get(key);
        if (cached != null && clock.instant().isBefore(cached.until())) {
            return CompletableFuture.completedFuture(cached.answer());
        }
        return lookup.lookup(token).thenApply(answer -> {
            if (!(answer instanceof Unavailable) && !ttl.isZero()) {
                prune();
                answers.put(key, new Cached(answer, clock.instant().plus(ttl)));
            }
            return answer;
        });
    }

    private void prune() {
        if (answers.size() < MAX_ENTRIES) {
            return;
        }
        Instant now = clock.instant();
        answers.values().removeIf(c -> !now.isBefore(c.until()));
        if (answers.size() >= MAX_ENTRIES) {
            answers.clear();
        }
    }

    static String hash(String token) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JVM", e);
        }
    }
}
