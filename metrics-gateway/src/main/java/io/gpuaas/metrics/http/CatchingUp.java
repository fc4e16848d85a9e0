package io.gpuaas.metrics.http;

import io.gpuaas.kit.http.Problem;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;

/** The usage endpoints' answer while the ledger feed replays its topics: 503, try again shortly. */
final class CatchingUp {

    static final String RETRY_AFTER_SECONDS = "5";

    private CatchingUp() {}

    static HttpResponse<String> response(String path) {
        return Problem.of(
                        HttpStatus.SERVICE_UNAVAILABLE,
                        "LEDGER_CATCHING_UP",
                        null,
                        "the ledger is still reading its topics; try again shortly")
                .response(path)
                .header("Retry-After", RETRY_AFTER_SECONDS);
    }
}
