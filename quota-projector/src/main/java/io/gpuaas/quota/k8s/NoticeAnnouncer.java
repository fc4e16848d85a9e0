package io.gpuaas.quota.k8s;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.gpuaas.events.CloudEventHeaders;
import io.gpuaas.quota.model.BookingNotice;
import io.gpuaas.quota.model.KueueConditions;
import io.gpuaas.quota.model.QuotaPlan;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Shows a booking notice on the tenant's objects, so {@code kubectl describe} tells the team before its booking ends
 * or is released as a no-show: one core/v1 Event per notice and object (its name derived from the notice id and the
 * object, so a second attempt, also after a restart, finds it and creates nothing) and the annotation with the
 * projected time, written when it differs (a full update with the cached object's resourceVersion: a conflict throws
 * and the loop tries again) and taken off once that time has passed.
 */
public final class NoticeAnnouncer {

    static final String COMPONENT = "gpuaas-quota-projector";
    /** Where the Events of cluster-scoped objects (the ClusterQueue) go, as client-go's recorder puts them. */
    static final String CLUSTER_EVENTS_NAMESPACE = "default";

    private final KubernetesClient client;
    private final ClusterCache cache;
    private final String localQueueName;
    private final Clock clock;
    /** Events this process created or found: not asked for again while the notice is shown. */
    private final Set<String> recorded = ConcurrentHashMap.newKeySet();

    public NoticeAnnouncer(KubernetesClient client, ClusterCache cache, String localQueueName, Clock clock) {
        this.client = client;
        this.cache = cache;
        this.localQueueName = localQueueName;
        this.clock = clock;
    }

    /** Puts the annotation on the notice's objects and records its Event on each, once. */
    public void show(BookingNotice notice) {
        for (HasMetadata object : targets(notice)) {
            annotate(object, notice.annotation(), notice.at().toString());
            recordEvent(object, notice);
        }
    }

    /** The notice is over: its annotation goes from its objects where it still says this notice's time. */
    public void withdraw(BookingNotice notice) {
        String value = notice.at().toString();
        for (HasMetadata object : targets(notice)) {
            if (value.equals(Ownership.annotation(object, notice.annotation()))) {
                annotate(object, notice.annotation(), null);
            }
        }
        forget(notice);
    }

    /** The notice is shown no more (over, or superseded by a later decision that rewrites its annotation). */
    public void forget(BookingNotice notice) {
        recorded.removeIf(name -> name.startsWith(notice.noticeId() + "|"));
    }

    /** The objects the notice goes on that exist now, from the informers' caches. */
    List<HasMetadata> targets(BookingNotice notice) {
        List<HasMetadata> targets = new ArrayList<>();
        if (notice.onWorkloads()) {
            cache.workloads(ClusterCache.BY_LOCAL_QUEUE, notice.namespace() + "/" + localQueueName).stream()
                    .filter(w -> !Workloads.isTrue(Workloads.conditions(w), KueueConditions.FINISHED))
                    .forEach(targets::add);
        }
        cache.get(new ObjectRef(Kind.LOCAL_QUEUE, notice.namespace(), localQueueName))
                .ifPresent(targets::add);
        if (notice.onClusterQueue()) {
            cache.get(new ObjectRef(Kind.CLUSTER_QUEUE, null, QuotaPlan.clusterQueueName(notice.tenant())))
                    .ifPresent(targets::add);
        }
        return targets;
    }

    private void annotate(HasMetadata cached, String key, String value) {
        Map<String, String> current = cached.getMetadata().getAnnotations();
        if (Objects.equals(current == null ? null : current.get(key), value)) {
            return;
        }
        // The cache's object is shared with every reader: change a copy.
        HasMetadata annotated = client.getKubernetesSerialization().clone(cached);
        Map<String, String> annotations = new HashMap<>(current == null ? Map.of() : current);
        if (value == null) {
            annotations.remove(key);
        } else {
            annotations.put(key, value);
        }
        annotated.getMetadata().setAnnotations(annotations);
        try {
            client.resource(annotated).update();
        } catch (KubernetesClientException e) {
            // 404: deleted meanwhile (the cache will say so); nothing to show on it.
            if (e.getCode() != 404) {
                throw e;
            }
        }
    }

    private void recordEvent(HasMetadata object, BookingNotice notice) {
        String name = eventName(object, notice);
        if (recorded.contains(notice.noticeId() + "|" + name)) {
            return;
        }
        String namespace = object.getMetadata().getNamespace() == null
                ? CLUSTER_EVENTS_NAMESPACE
                : object.getMetadata().getNamespace();
        String now = clock.instant().toString();
        Event event = new EventBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(namespace)
                .endMetadata()
                .withInvolvedObject(new ObjectReferenceBuilder()
                        .withApiVersion(object.getApiVersion())
                        .withKind(object.getKind())
                        .withNamespace(object.getMetadata().getNamespace())
                        .withName(object.getMetadata().getName())
                        .withUid(object.getMetadata().getUid())
                        .build())
                .withReason(notice.reason())
                .withType("Warning")
                .withMessage(notice.message())
                .withFirstTimestamp(now)
                .withLastTimestamp(now)
                .withCount(1)
                .withNewSource()
                .withComponent(COMPONENT)
                .endSource()
                .withReportingComponent(COMPONENT)
                .build();
        try {
            client.v1().events().inNamespace(namespace).resource(event).create();
        } catch (KubernetesClientException e) {
            // 409: made before (by this notice, before a restart or by the replica that led then); 404: the
            // namespace is gone, and the object with it.
            if (e.getCode() != 409 && e.getCode() != 404) {
                throw e;
            }
        }
        recorded.add(notice.noticeId() + "|" + name);
    }

    /**
     * {@code <object name>.<16 hex>} of a name-based UUID of the notice id and the object's kind: the same notice
     * always names the same Event on one object, and a LocalQueue and a Workload of the same name get two.
     */
    static String eventName(HasMetadata object, BookingNotice notice) {
        String name = object.getMetadata().getName();
        String id = CloudEventHeaders.idOf(notice.noticeId() + "|" + object.getKind())
                .toString()
                .replace("-", "");
        return name.substring(0, Math.min(name.length(), 200)) + "." + id.substring(0, 16);
    }
}
