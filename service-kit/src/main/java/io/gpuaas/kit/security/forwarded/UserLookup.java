package io.gpuaas.kit.security.forwarded;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Asks the cluster who a token belongs to. */
@FunctionalInterface
public interface UserLookup {

    CompletableFuture<Answer> lookup(String token);

    /** What the API server said about a token. */
    sealed interface Answer {}

    /** The token is a user's: its name and every group the API server puts it in. */
    record User(String name, List<String> groups) implements Answer {}

    /** The API server refused the token (401/403): unknown, expired, revoked or without the user:info scope. */
    record Refused(int status) implements Answer {}

    /** No answer (connection, timeout, 5xx, unreadable body): the token is neither good nor bad yet. */
    record Unavailable(String reason) implements Answer {}
}
