package io.gpuaas.booking.webhook;

import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * One notice on its way to one endpoint.
 *
 * @param original    the notice record as read (dead-lettered as it is)
 * @param endpointKey the registration's record key ({@code tenant/id}); looked up again before every attempt
 * @param messageId   {@code webhook-id}, the same for every attempt
 * @param body        the signed CloudEvent JSON
 * @param onEnd       called once when the delivery ends, however it ends
 */
record Delivery(
        ConsumerRecord<byte[], byte[]> original, String endpointKey, String messageId, byte[] body, Runnable onEnd) {}
