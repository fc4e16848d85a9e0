package io.gpuaas.booking.http;

import io.gpuaas.booking.kafka.BookingView;
import io.gpuaas.booking.kafka.IdempotencyKeys;
import io.gpuaas.events.booking.BookingCommand;
import io.gpuaas.events.booking.Caller;
import io.gpuaas.events.booking.WaitlistEntry;
import io.micronaut.core.annotation.Introspected;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Header;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.authentication.Authentication;
import io.micronaut.security.rules.SecurityRule;
import io.swagger.v3.oas.annotations.Operation;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * The waitlist over HTTP: the requests that did not fit and wait (a create with {@code waitlist.latestStart}). A tenant
 * sees and cancels only its own entries (another's is the same 404 as an unknown one), an admin any. A cancel goes to
 * the pool's single writer like a booking's, so it never races the writer booking the entry.
 */
@Controller("/api/v1/waitlist")
@Secured(SecurityRule.IS_AUTHENTICATED)
public class WaitlistController {

    /** At most this many entries in one answer, newest last. */
    static final int MAX_ENTRIES = 500;

    private final BookingView view;
    private final DecisionGateway gateway;
    private final CallerGuard guard;
    private final BookingAccess access;

    public WaitlistController(BookingView view, DecisionGateway gateway, CallerGuard guard, BookingAccess access) {
        this.view = view;
        this.gateway = gateway;
        this.guard = guard;
        this.access = access;
    }

    /** The caller's entries (admins: all), in arrival order. */
    @Introspected
    public record Entries(List<WaitlistEntry> entries) {}

    @Operation(
            summary = "The caller's waitlist entries (admins: all), in arrival order",
            description =
                    "state: WAITING (default), BOOKED, CANCELLED, EXPIRED or ALL; at most 500 entries, the latest.")
    @Get(produces = MediaType.APPLICATION_JSON)
    public Entries list(@Nullable String state, Authentication authentication) {
        Caller caller = guard.admit(authentication);
        Optional<WaitlistEntry.State> wanted = parseState(state);
        List<WaitlistEntry> mine = view.waitlist().all().stream()
                .filter(e -> visible(e, caller))
                .filter(e -> wanted.map(s -> s == e.state()).orElse(true))
                .sorted(Comparator.comparing(WaitlistEntry::createdAt).thenComparing(WaitlistEntry::id))
                .toList();
        return new Entries(mine.subList(Math.max(0, mine.size() - MAX_ENTRIES), mine.size()));
    }

    @Operation(summary = "One waitlist entry; another tenant's answers 404")
    @Get(uri = "/{id}", produces = MediaType.APPLICATION_JSON)
    public WaitlistEntry get(@PathVariable String id, Authentication authentication) {
        Caller caller = guard.admit(authentication);
        return find(id, caller).orElseThrow(() -> notFound(id));
    }

    @Operation(
            summary = "Cancel a waiting entry",
            description = "200 with the entry CANCELLED. An entry booked meanwhile is a booking now: the cancel "
                    + "reaches the booking of the same id (cancel it as a booking). Another tenant's entry: 404. "
                    + "Idempotency-Key as for the bookings.")
    @Delete(uri = "/{id}", produces = MediaType.APPLICATION_JSON)
    public CompletableFuture<MutableHttpResponse<?>> cancel(
            HttpRequest<?> request,
            @PathVariable String id,
            @Nullable @Header("Idempotency-Key") String idempotencyKey,
            Authentication authentication) {
        Caller caller = guard.admit(authentication);
        String key = RequestValidator.idempotencyKey(idempotencyKey);
        String fingerprint = key == null ? null : IdempotencyKeys.fingerprint("DELETE", request.getPath(), "");
        Optional<WaitlistEntry> entry = find(id, caller);
        if (entry.isEmpty()) {
            access.claim(IdempotencyKeys.scope(caller), key, fingerprint);
            throw notFound(id);
        }
        Caller actor = new Caller(caller.subject(), entry.get().tenant(), caller.admin());
        access.claim(IdempotencyKeys.scope(actor), key, fingerprint);
        if (!entry.get().state().waiting() && key == null) {
            throw new ProblemException(
                    409, "INVALID_STATE", "state", "the entry is " + entry.get().state() + ", no longer waiting");
        }
        String requestId = UUID.randomUUID().toString();
        BookingCommand command = new BookingCommand.CancelBooking(
                requestId, key, actor, entry.get().pool(), id, Instant.now(), fingerprint);
        return gateway.decide(command)
                .thenApply(decision -> DecisionResponses.toResponse(decision, requestId, id, request.getPath()));
    }

    private Optional<WaitlistEntry> find(String id, Caller caller) {
        return view.waitlist().find(id).filter(e -> visible(e, caller));
    }

    private static boolean visible(WaitlistEntry entry, Caller caller) {
        return caller.admin() || entry.tenant().equals(caller.tenant());
    }

    private static Optional<WaitlistEntry.State> parseState(@Nullable String state) {
        String s = RequestValidator.text("state", state, RequestValidator.MAX_ID);
        if (s == null) {
            return Optional.of(WaitlistEntry.State.WAITING);
        }
        if (s.equalsIgnoreCase("ALL")) {
            return Optional.empty();
        }
        try {
            return Optional.of(WaitlistEntry.State.valueOf(s.toUpperCase(Locale.ROOT)));
        } catch (IllegalArgumentException e) {
            throw ProblemException.badRequest(
                    "INVALID_FIELD", "state", "state must be WAITING, BOOKED, CANCELLED, EXPIRED or ALL");
        }
    }

    private static ProblemException notFound(String id) {
        return new ProblemException(
                404,
                "NOT_FOUND",
                "id",
                id.length() <= RequestValidator.MAX_ID ? "no waitlist entry " + id : "no waitlist entry with that id");
    }
}
