package io.gpuaas.quota.k8s;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * Writes one desired object (a typed kube-models object): create when missing, an update of the fields it owns when
 * it differs, nothing when it matches. What it owns is what the desired object sets: the spec is compared as JSON,
 * desired against actual ({@link SpecMatcher}), so fields others set are never fought over. The update carries the {@code resourceVersion} it was computed from, so a concurrent change answers
 * 409; the writer then re-reads from the API server and decides again, as it does when an update of an object the
 * cache still holds answers 404 (deleted meanwhile: created again). Objects without the gpuaas label are never
 * touched. (Server-side apply would be nicer, but the CRUD mock the tests run against has none.)
 */
public final class ClusterQueueWriter {

    /** What a write did. */
    public enum Outcome {
        UNCHANGED,
        CREATED,
        UPDATED,
        DELETED,
        FOREIGN,
        GONE
    }

    private static final int ATTEMPTS = 4;
    private static final int CONFLICT = 409;
    private static final int NOT_FOUND = 404;

    private final KubernetesClient client;
    private final Function<ObjectRef, Optional<HasMetadata>> cache;
    private final ConflictCounter conflicts;
    private final Map<ObjectRef, HasMetadata> written = new java.util.concurrent.ConcurrentHashMap<>();

    /** Counts 409s so operators can see contention. */
    public interface ConflictCounter {
        void conflict(Kind kind);
    }

    public ClusterQueueWriter(
            KubernetesClient client, Function<ObjectRef, Optional<HasMetadata>> cache, ConflictCounter conflicts) {
        this.client = client;
        this.cache = cache;
        this.conflicts = conflicts;
    }

    /** Makes the object at {@code ref} hold {@code desired}'s labels, annotations and spec. */
    public Outcome apply(ObjectRef ref, HasMetadata desired) {
        HasMetadata actual = known(ref);
        for (int attempt = 1; ; attempt++) {
            try {
                return applyOnce(ref, desired, actual);
            } catch (KubernetesClientException e) {
                boolean stale = e.getCode() == CONFLICT || (e.getCode() == NOT_FOUND && actual != null);
                if (!stale || attempt == ATTEMPTS) {
                    throw e;
                }
                if (e.getCode() == CONFLICT) {
                    conflicts.conflict(ref.kind());
                } else {
                    written.remove(ref);
                }
                // 409: changed since it was read; 404 on an update: deleted, and the cache has not seen it yet (a
                // watch can lag by a minute). Either way the API server's answer decides: update it, or create it.
                actual = resource(ref).get();
            }
        }
    }

    private Outcome applyOnce(ObjectRef ref, HasMetadata desired, HasMetadata actual) {
        if (actual == null) {
            remember(ref, client.resource(desired).create());
            return Outcome.CREATED;
        }
        if (!Ownership.owned(actual)) {
            return Outcome.FOREIGN;
        }
        if (matches(actual, desired)) {
            return Outcome.UNCHANGED;
        }
        // The update carries actual's resourceVersion: a concurrent writer makes it fail with 409, not vanish.
        remember(ref, client.resource(merged(actual, desired)).update());
        return Outcome.UPDATED;
    }

    /** Deletes an owned object; one already gone counts as done. */
    public Outcome delete(ObjectRef ref, HasMetadata actual) {
        if (!Ownership.owned(actual)) {
            return Outcome.FOREIGN;
        }
        written.remove(ref);
        try {
            resource(ref).delete();
            return Outcome.DELETED;
        } catch (KubernetesClientException e) {
            if (e.getCode() == NOT_FOUND) {
                return Outcome.GONE;
            }
            throw e;
        }
    }

    /** The object at {@code ref} as far as this writer knows: the newer of the cached one and its own last write. */
    public HasMetadata known(ObjectRef ref) {
        return newest(cache.apply(ref).orElse(null), written.get(ref));
    }

    /** Whether {@code object} is the very version this writer last wrote at {@code ref}. */
    public boolean wrote(ObjectRef ref, HasMetadata object) {
        HasMetadata mine = written.get(ref);
        return mine != null
                && object != null
                && Objects.equals(
                        mine.getMetadata().getUid(), object.getMetadata().getUid())
                && Objects.equals(
                        mine.getMetadata().getResourceVersion(),
                        object.getMetadata().getResourceVersion());
    }

    /** Forgets its own writes (a new term starts from the cache). */
    public void forget() {
        written.clear();
    }

    private void remember(ObjectRef ref, HasMetadata result) {
        if (result != null) {
            written.put(ref, result);
        }
    }

    /**
     * The later of the cached object and the one this writer last wrote. A key changed at every boundary (the
     * Cohort) would otherwise be updated from a cache the watch has not refreshed yet, and answer 409 each time.
     */
    static HasMetadata newest(HasMetadata cached, HasMetadata written) {
        if (cached == null || written == null) {
            return cached;
        }
        if (!Objects.equals(cached.getMetadata().getUid(), written.getMetadata().getUid())) {
            return cached;
        }
        return version(written) > version(cached) ? written : cached;
    }

    static long version(HasMetadata object) {
        try {
            return Long.parseLong(object.getMetadata().getResourceVersion());
        } catch (NumberFormatException e) {
            // resourceVersion is opaque in general; when it is not a number, trust the cache.
            return Long.MIN_VALUE;
        }
    }

    /** Whether {@code actual} already holds every label, annotation and spec field of {@code desired}. */
    boolean matches(HasMetadata actual, HasMetadata desired) {
        KubernetesSerialization json = client.getKubernetesSerialization();
        return SpecMatcher.covers(
                        actual.getMetadata().getLabels(), desired.getMetadata().getLabels())
                && drainMarkMatches(actual, desired)
                && SpecMatcher.covers(spec(json, actual), spec(json, desired));
    }

    private static boolean drainMarkMatches(HasMetadata actual, HasMetadata desired) {
        return Objects.equals(
                Ownership.annotation(actual, DrainPolicy.DRAIN_STARTED),
                Ownership.annotation(desired, DrainPolicy.DRAIN_STARTED));
    }

    /**
     * {@code actual} with {@code desired}'s labels, annotations and spec laid over it (a WorkloadPriorityClass has no
     * spec: its top-level fields). Fields others set (Kueue's
     * defaults, an admin's extra annotation) survive; lists are replaced whole, as a merge patch would.
     */
    @SuppressWarnings("unchecked")
    HasMetadata merged(HasMetadata actual, HasMetadata desired) {
        KubernetesSerialization json = client.getKubernetesSerialization();
        @SuppressWarnings("unchecked")
        Map<String, Object> tree = json.convertValue(actual, Map.class);
        if (topLevel(desired)) {
            tree = (Map<String, Object>) overlay(tree, spec(json, desired));
        } else {
            tree.put("spec", overlay(tree.get("spec"), spec(json, desired)));
        }
        HasMetadata copy = json.convertValue(tree, actual.getClass());
        Map<String, String> labels = new LinkedHashMap<>(
                Optional.ofNullable(copy.getMetadata().getLabels()).orElse(Map.of()));
        labels.putAll(desired.getMetadata().getLabels());
        copy.getMetadata().setLabels(labels);
        Map<String, String> annotations = new LinkedHashMap<>(
                Optional.ofNullable(copy.getMetadata().getAnnotations()).orElse(Map.of()));
        // A revived queue loses its drain mark; a draining one gets it.
        annotations.remove(DrainPolicy.DRAIN_STARTED);
        Optional.ofNullable(desired.getMetadata().getAnnotations()).ifPresent(annotations::putAll);
        copy.getMetadata().setAnnotations(annotations);
        return copy;
    }

    /**
     * The object's {@code spec} as JSON values (maps, lists, scalars), unknown fields included; for a kind without a
     * spec (WorkloadPriorityClass), its top-level fields but the envelope (apiVersion, kind, metadata).
     */
    static Object spec(KubernetesSerialization json, HasMetadata object) {
        Map<?, ?> tree = json.convertValue(object, Map.class);
        if (!topLevel(object)) {
            return tree.get("spec");
        }
        Map<String, Object> body = new LinkedHashMap<>();
        tree.forEach((k, v) -> {
            if (!ENVELOPE.contains(k.toString())) {
                body.put(k.toString(), v);
            }
        });
        return body;
    }

    private static final java.util.Set<String> ENVELOPE =
            java.util.Set.of("apiVersion", "kind", "metadata", "spec", "status");

    private static boolean topLevel(HasMetadata object) {
        return object instanceof io.gpuaas.kube.kueue.v1beta2.WorkloadPriorityClass;
    }

    @SuppressWarnings("unchecked")
    static Object overlay(Object base, Object top) {
        if (!(base instanceof Map<?, ?> baseMap) || !(top instanceof Map<?, ?> topMap)) {
            return top;
        }
        Map<String, Object> result = new LinkedHashMap<>((Map<String, Object>) baseMap);
        topMap.forEach((k, v) -> result.put(k.toString(), overlay(result.get(k.toString()), v)));
        return result;
    }

    private Resource<? extends HasMetadata> resource(ObjectRef ref) {
        var operation = client.resources(ref.kind().type());
        return ref.namespace() == null
                ? operation.withName(ref.name())
                : operation.inNamespace(ref.namespace()).withName(ref.name());
    }
}
