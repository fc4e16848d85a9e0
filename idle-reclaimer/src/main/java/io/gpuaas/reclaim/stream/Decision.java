package io.gpuaas.reclaim.stream;

import io.gpuaas.events.notice.Notice;
import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.reclaim.ReclaimIntent;

/**
 * What the window step outputs: an event for {@code reclaim-events}, an intent for {@code reclaim-intents} or a
 * notice for {@code notices}.
 */
public sealed interface Decision {

    /** Something decided in the stream itself: idleness found, an opted-out workload left alone. */
    record Report(ReclaimEvent event) implements Decision {}

    /** Work for the applier, which talks to the API server outside the stream's transaction. */
    record Intent(ReclaimIntent intent) implements Decision {}

    /** A heads-up to the workload's tenant (ReclaimPending), sent once: the store records it in the same transaction. */
    record Notify(Notice notice) implements Decision {}
}
