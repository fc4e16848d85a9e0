package io.gpuaas.events;

/**
 * An event that carries its own identity: the same fact always has the same {@link #eventId()}, however often it is
 * written. {@link CloudEventSerializer} derives the record's {@code ce_id} from it (a name-based UUID, see
 * {@link CloudEventHeaders#idOf}) instead of drawing a random one, so a consumer that deduplicates by {@code ce_id}
 * (a webhook receiver keyed by {@code webhook-id}, say) drops a second copy.
 */
public interface IdentifiedEvent {

    /** The event's own id, stable across retries, restarts and replicas. */
    String eventId();
}
