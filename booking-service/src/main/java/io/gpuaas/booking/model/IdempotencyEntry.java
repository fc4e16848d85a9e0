package io.gpuaas.booking.model;

import java.time.Instant;

/**
 * The remembered answer to an idempotency key.
 *
 * @param fingerprint the command body the key was first used with (without request and booking ids)
 * @param answerType  CloudEvents type of the answer event
 * @param answerJson  the answer event as JSON, replayed with the new request id on a repeat
 * @param decidedAt   when the first answer was given (entries expire after the retention)
 */
public record IdempotencyEntry(String fingerprint, String answerType, String answerJson, Instant decidedAt) {}
