package io.gpuaas.metrics.projection;

import io.gpuaas.events.quota.QueueState;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The latest QueueState of every Kueue queue, from the compacted {@code gpuaas.quota-state} topic: the source
 * of queue-depth metrics and of the KEDA queue endpoint. Read at scrape time, so a new state is visible on
 * the next scrape.
 */
public final class QueueDepth {

    private final Map<String, QueueState> states = new ConcurrentHashMap<>();
    private final TenantDirectory tenants;

    public QueueDepth(TenantDirectory tenants) {
        this.tenants = tenants;
    }

    /** Applies the record at {@code key}; a null state is a tombstone (the queue was deleted). */
    public void apply(String key, QueueState state) {
        if (state == null) {
            states.remove(key);
            return;
        }
        states.put(state.key(), state);
        if (state.kind() == QueueState.Kind.LOCAL_QUEUE) {
            tenants.queueOwner(state.namespace(), state.tenant());
        }
    }

    public Optional<QueueState> localQueue(String namespace, String localQueue) {
        return Optional.ofNullable(states.get("lq/" + namespace + "/" + localQueue));
    }

    public Collection<QueueState> all() {
        return List.copyOf(states.values());
    }
}
