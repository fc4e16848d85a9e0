package io.gpuaas.system.reliability.support;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.gpuaas.testing.k8s.GpuaasCrd;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every change the API server reports on RayClusters and InferenceServices while it watches, reduced to what a
 * reclaim writes: how many GPU workers the object asks for and its {@code gpuaas.io/reclaimed-state} annotation (the
 * stored previous values). That is what an owner and KubeRay/KServe see, however the reclaimer decides and applies
 * it, so a reclaim applied twice shows here whatever the reclaimer's own events say.
 */
public final class ScaleWrites implements AutoCloseable {

    static final String RECLAIMED_STATE = "gpuaas.io/reclaimed-state";

    /** One observed version: GPU workers asked for and the stored reclaim state (null when not reclaimed). */
    record Seen(int workers, String reclaimedState) {}

    private final Map<String, List<Seen>> seen = new ConcurrentHashMap<>();
    private final List<Watch> watches = new ArrayList<>();

    private ScaleWrites() {}

    /** Starts watching both kinds in every namespace; from then on every change is recorded. */
    public static ScaleWrites watch(KubernetesClient client) {
        ScaleWrites writes = new ScaleWrites();
        for (GpuaasCrd crd : List.of(GpuaasCrd.RAY_CLUSTER, GpuaasCrd.INFERENCE_SERVICE)) {
            writes.watches.add(client.genericKubernetesResources(crd.context())
                    .inAnyNamespace()
                    .watch(writes.new Recorder()));
        }
        return writes;
    }

    /** Times the object went from some GPU workers to none. */
    public int scaleDowns(String key) {
        int count = 0;
        Seen before = null;
        for (Seen now : history(key)) {
            if (before != null && before.workers() > 0 && now.workers() == 0) {
                count++;
            }
            before = now;
        }
        return count;
    }

    /** Times a new reclaim state was stored on the object (each reclaim stores one, each resume removes it). */
    public int reclaimStates(String key) {
        int count = 0;
        String before = null;
        for (Seen now : history(key)) {
            if (now.reclaimedState() != null && !now.reclaimedState().equals(before)) {
                count++;
            }
            before = now.reclaimedState();
        }
        return count;
    }

    /** Workers asked for in the last version seen, or -1 when none was seen. */
    public int workers(String key) {
        List<Seen> history = history(key);
        return history.isEmpty() ? -1 : history.getLast().workers();
    }

    private List<Seen> history(String key) {
        List<Seen> history = seen.getOrDefault(key, List.of());
        synchronized (history) {
            return List.copyOf(history);
        }
    }

    /** {@code namespace/Kind/name}, the reclaim-events key. */
    static String key(GenericKubernetesResource object) {
        return object.getMetadata().getNamespace() + "/" + object.getKind() + "/"
                + object.getMetadata().getName();
    }

    /** RayCluster: the replicas of every worker group; InferenceService: predictor minReplicas, 0 when stopped. */
    static int workers(GenericKubernetesResource object) {
        Map<String, Object> spec = map(object.getAdditionalProperties().get("spec"));
        if ("RayCluster".equals(object.getKind())) {
            int sum = 0;
            if (spec.get("workerGroupSpecs") instanceof List<?> groups) {
                for (Object group : groups) {
                    sum += number(map(group).get("replicas"), 1);
                }
            }
            return sum;
        }
        Map<String, String> annotations = object.getMetadata().getAnnotations();
        if (annotations != null && "true".equals(annotations.get("serving.kserve.io/stop"))) {
            return 0;
        }
        return number(map(spec.get("predictor")).get("minReplicas"), 1);
    }

    private static Map<String, Object> map(Object value) {
        @SuppressWarnings("unchecked")
        Map<String, Object> m = value instanceof Map<?, ?> ? (Map<String, Object>) value : Map.of();
        return m;
    }

    private static int number(Object value, int absent) {
        return value instanceof Number n ? n.intValue() : value == null ? absent : Integer.parseInt(value.toString());
    }

    @Override
    public void close() {
        watches.forEach(Watch::close);
    }

    private final class Recorder implements Watcher<GenericKubernetesResource> {

        @Override
        public void eventReceived(Action action, GenericKubernetesResource object) {
            if (action != Action.ADDED && action != Action.MODIFIED) {
                return;
            }
            Map<String, String> annotations = object.getMetadata().getAnnotations();
            Seen now = new Seen(workers(object), annotations == null ? null : annotations.get(RECLAIMED_STATE));
            List<Seen> history = seen.computeIfAbsent(key(object), k -> new ArrayList<>());
            synchronized (history) {
                if (history.isEmpty() || !Objects.equals(history.getLast(), now)) {
                    history.add(now);
                }
            }
        }

        @Override
        public void onClose(WatcherException cause) {
            System.err.println("reliability: scale watch closed: " + cause);
        }
    }
}
