package io.gpuaas.quota.k8s;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * One informer notification: {@code before} is null for an add, {@code after} is null for a delete. Handlers only
 * look at it and enqueue work; they never call the API server on the informer thread.
 */
public record Change(Kind kind, HasMetadata before, HasMetadata after) {

    /** The object as it is now, or as it was when deleted. */
    public HasMetadata current() {
        return after != null ? after : before;
    }

    public ObjectRef ref() {
        return ObjectRef.of(kind, current());
    }

    public boolean deleted() {
        return after == null;
    }
}
