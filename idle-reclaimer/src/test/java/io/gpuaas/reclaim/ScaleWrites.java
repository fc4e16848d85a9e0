package io.gpuaas.reclaim;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.gpuaas.reclaim.k8s.KubeResources;
import io.gpuaas.reclaim.k8s.ReclaimAnnouncer;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The writes that reached the objects of one kind in a namespace, as a watch sees them: a rejected update (409) is
 * not one, a second successful write of the same window would be (a new resourceVersion carrying that window id).
 * A write that changes the {@code gpuaas.io/reclaim-at} annotation is the announcer's, not a scale write.
 */
public final class ScaleWrites implements AutoCloseable {

    private final Map<String, Set<String>> versionsByWindow = new ConcurrentHashMap<>();
    private final Map<String, String> reclaimAtByObject = new ConcurrentHashMap<>();
    private final Watch watch;

    private <T extends HasMetadata> ScaleWrites(KubernetesClient client, Class<T> kind, String namespace) {
        this.watch = client.resources(kind).inNamespace(namespace).watch(new Watcher<T>() {
            @Override
            public void eventReceived(Action action, T object) {
                String state = KubeResources.annotations(object).get(KubeResources.RECLAIMED_STATE);
                String reclaimAt = KubeResources.annotations(object).getOrDefault(ReclaimAnnouncer.RECLAIM_AT, "");
                String before = reclaimAtByObject.put(object.getMetadata().getName(), reclaimAt);
                boolean announcement = before != null && !before.equals(reclaimAt);
                if (action == Action.MODIFIED && state != null && !announcement) {
                    String window =
                            io.gpuaas.reclaim.k8s.ReclaimedState.parse(state).actionId();
                    versionsByWindow
                            .computeIfAbsent(window, w -> ConcurrentHashMap.newKeySet())
                            .add(object.getMetadata().getResourceVersion());
                }
            }

            @Override
            public void onClose(WatcherException cause) {}
        });
    }

    public static ScaleWrites watch(KubernetesClient client, Class<? extends HasMetadata> kind, String namespace) {
        return new ScaleWrites(client, kind, namespace);
    }

    /** Successful updates whose reclaimed-state names {@code windowId}. */
    public int of(String windowId) {
        return versionsByWindow.getOrDefault(windowId, Set.of()).size();
    }

    @Override
    public void close() {
        watch.close();
    }
}
