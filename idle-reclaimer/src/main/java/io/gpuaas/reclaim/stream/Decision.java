package io.gpuaas.reclaim.stream;

import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.reclaim.ReclaimIntent;

/** What the window step outputs: an event for {@code reclaim-events} or an intent for {@code reclaim-intents}. */
public sealed interface Decision {

    /** Something decided in the stream itself: idleness found, an opted-out workload left alone. */
    record Report(ReclaimEvent event) implements Decision {}

    /** Work for the applier, which talks to the API server outside the stream's transaction. */
    record Intent(ReclaimIntent intent) implements Decision {}
}
