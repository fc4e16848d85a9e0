package io.gpuaas.booking.webhook;

/**
 * Why a notice was dead-lettered instead of delivered: names the endpoint by id (its URL may carry a token of the
 * tenant's, so it is never in a log or header) and the last result. Its class name is the dead letter's
 * {@code gpuaas_dlq_reason}.
 */
final class WebhookDeliveryFailed extends RuntimeException {

    private static final long serialVersionUID = 1L;

    WebhookDeliveryFailed(String endpointKey, int attempts, String detail) {
        super(
                "webhook " + endpointKey + ": gave up after " + attempts + " attempt(s); last: " + detail,
                null,
                false,
                false);
    }
}
