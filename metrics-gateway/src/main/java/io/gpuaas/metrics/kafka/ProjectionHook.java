package io.gpuaas.metrics.kafka;

import io.gpuaas.events.TopicSpec;

/**
 * Called before a projection applies a record; what it throws counts as the projection's failure (retried, then
 * the record is dead-lettered). Production registers none. It is the fault ITs' seam: a bean of this type makes a
 * projection fail on demand, as a bug or a record it cannot apply would, without a special record or a broken build.
 */
@FunctionalInterface
public interface ProjectionHook {

    void beforeApply(TopicSpec<String, ?> topic, String key);
}
