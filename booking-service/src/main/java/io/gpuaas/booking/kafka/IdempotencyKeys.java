package io.gpuaas.booking.kafka;

import io.gpuaas.booking.config.BookingSettings;
import io.gpuaas.events.booking.Caller;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Binds an {@code Idempotency-Key} to the whole request it was first used with (method, target path, canonical
 * body), per tenant, at the edge. The decider remembers keys too, but per pool partition: a key reused for another
 * pool, or first spent on a cancel that never reached the decider, would otherwise create a booking. Same key and
 * same request passes (the decider replays its answer, or the edge gives the same answer again); same key and
 * another request is a 422. {@link BookingFeed} also teaches it the keys of the commands every instance published
 * (see {@link #learn}), so the binding holds across replicas once a command is on the topic; two replicas given the
 * same key for different pools within that delay (milliseconds) can still both pass.
 */
@Singleton
public class IdempotencyKeys {

    private static final int PURGE_EVERY = 1024;

    private final Map<String, Binding> bindings = new ConcurrentHashMap<>();
    private final Duration retention;
    private final Clock clock;
    private final AtomicLong claims = new AtomicLong();

    public IdempotencyKeys(BookingSettings settings) {
        this(settings.retention(), Clock.systemUTC());
    }

    public IdempotencyKeys(Duration retention, Clock clock) {
        this.retention = retention;
        this.clock = clock;
    }

    /** The request a key was first used with, and when. */
    record Binding(String fingerprint, Instant at) {}

    /** Digest of what a key is bound to: the method, the target path and the canonical body (empty when none). */
    public static String fingerprint(String method, String path, String canonicalBody) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            byte[] digest = sha.digest((method + ' ' + path + '\n' + canonicalBody).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK lacks SHA-256", e);
        }
    }

    /**
     * Who a key belongs to: the tenant the request acts for, or an admin's own subject when it acts for none. A system
     * caller's keys (booking-service's own lifecycle, read back from the command topic) are kept apart from its
     * tenant's, as the decider keeps them, so no tenant request is refused over a key the system used.
     */
    public static String scope(Caller caller) {
        if (caller.system()) {
            return "system:" + caller.tenant();
        }
        return caller.tenant() != null ? "tenant:" + caller.tenant() : "subject:" + caller.subject();
    }

    /**
     * Binds {@code key} in {@code scope} to {@code fingerprint} unless it is bound already; true when it is (now)
     * bound to this request, false when it was used with another. A null key binds nothing.
     */
    public boolean claim(String scope, String key, String fingerprint) {
        if (key == null) {
            return true;
        }
        Instant now = clock.instant();
        Binding bound = bindings.compute(
                scope + '\u0000' + key,
                (k, old) ->
                        old == null || old.at().isBefore(now.minus(retention)) ? new Binding(fingerprint, now) : old);
        if (claims.incrementAndGet() % PURGE_EVERY == 0) {
            purge(now);
        }
        return bound.fingerprint().equals(fingerprint);
    }

    /** A key another instance (or this one, earlier) bound, as read back from the command topic; first one wins. */
    public void learn(Caller caller, String key, String fingerprint, Instant at) {
        if (key != null && fingerprint != null && caller != null) {
            bindings.putIfAbsent(scope(caller) + '\u0000' + key, new Binding(fingerprint, at));
        }
    }

    int size() {
        return bindings.size();
    }

    private void purge(Instant now) {
        Instant oldest = now.minus(retention);
        bindings.values().removeIf(b -> b.at().isBefore(oldest));
    }
}
