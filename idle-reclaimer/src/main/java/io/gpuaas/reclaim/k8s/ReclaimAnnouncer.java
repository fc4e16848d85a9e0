package io.gpuaas.reclaim.k8s;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.gpuaas.events.CloudEventHeaders;
import io.gpuaas.events.notice.Notice;
import io.gpuaas.events.reclaim.WorkloadRef;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Shows a ReclaimPending notice on its workload, so {@code kubectl describe} and {@code kubectl get -o yaml} tell the
 * owner before the reclaim: the annotation {@code gpuaas.io/reclaim-at} (level-based: written while the notice is
 * current, removed once it is withdrawn or the workload was resumed after it) and one core/v1 Event per notice (its
 * name derived from the notice id, so a second attempt finds it and creates nothing).
 */
public final class ReclaimAnnouncer {

    public static final String RECLAIM_AT = "gpuaas.io/reclaim-at";
    public static final String REASON = "ReclaimPending";
    static final String COMPONENT = "gpuaas-idle-reclaimer";

    private final KubernetesClient client;
    private final Predicate<HasMetadata> leftAlone;
    private final Clock clock;

    /** @param leftAlone objects a reclaim would skip ({@link WorkerScaler#leavesAlone}): nothing is announced on them */
    public ReclaimAnnouncer(KubernetesClient client, Predicate<HasMetadata> leftAlone, Clock clock) {
        this.client = client;
        this.leftAlone = leftAlone;
        this.clock = clock;
    }

    /**
     * Makes the object show {@code notice}, or no announcement when empty. One full update with the object's
     * resourceVersion, only when the annotation differs; a conflict throws and the caller's loop retries.
     */
    public void reconcile(WorkloadRef ref, Optional<Notice.ReclaimPending> notice) {
        HasMetadata object = client.resources(KubeResources.type(ref.kind()))
                .inNamespace(ref.namespace())
                .withName(ref.name())
                .get();
        if (object == null) {
            return;
        }
        Optional<Notice.ReclaimPending> shown = notice.filter(n -> !resumedAfter(object, n) && !leftAlone.test(object));
        String desired = shown.map(n -> n.reclaimAt().toString()).orElse(null);
        if (!Objects.equals(KubeResources.annotations(object).get(RECLAIM_AT), desired)) {
            if (desired == null) {
                KubeResources.mutableAnnotations(object).remove(RECLAIM_AT);
            } else {
                KubeResources.mutableAnnotations(object).put(RECLAIM_AT, desired);
            }
            client.resource(object).update();
        }
        // A notice read again after a restart must not bring back an Event the API server already expired.
        shown.filter(n -> clock.instant().isBefore(n.reclaimAt())).ifPresent(n -> recordEvent(object, n));
    }

    private static boolean resumedAfter(HasMetadata object, Notice.ReclaimPending notice) {
        String resumedAt = KubeResources.annotations(object).get(KubeResources.RESUMED_AT);
        if (resumedAt == null) {
            return false;
        }
        try {
            return Instant.parse(resumedAt).isAfter(notice.time());
        } catch (DateTimeParseException e) {
            return false;
        }
    }

    private void recordEvent(HasMetadata object, Notice.ReclaimPending notice) {
        String now = clock.instant().toString();
        Event event = new EventBuilder()
                .withNewMetadata()
                .withName(eventName(object, notice))
                .withNamespace(object.getMetadata().getNamespace())
                .endMetadata()
                .withInvolvedObject(new ObjectReferenceBuilder()
                        .withApiVersion(object.getApiVersion())
                        .withKind(object.getKind())
                        .withNamespace(object.getMetadata().getNamespace())
                        .withName(object.getMetadata().getName())
                        .withUid(object.getMetadata().getUid())
                        .build())
                .withReason(REASON)
                .withType("Warning")
                .withMessage("GPUs idle since " + notice.idleSince() + ": idle workers will be scaled to zero at "
                        + notice.reclaimAt() + " unless a GPU gets busy (window " + notice.window() + ")")
                .withFirstTimestamp(now)
                .withLastTimestamp(now)
                .withCount(1)
                .withNewSource()
                .withComponent(COMPONENT)
                .endSource()
                .withReportingComponent(COMPONENT)
                .build();
        try {
            client.v1()
                    .events()
                    .inNamespace(event.getMetadata().getNamespace())
                    .resource(event)
                    .create();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409) {
                throw e;
            }
        }
    }

    /** {@code <object name>.<16 hex of the notice's ce_id>}: the same notice always names the same Event. */
    static String eventName(HasMetadata object, Notice.ReclaimPending notice) {
        String name = object.getMetadata().getName();
        String id = CloudEventHeaders.idOf(notice.noticeId()).toString().replace("-", "");
        return name.substring(0, Math.min(name.length(), 200)) + "." + id.substring(0, 16);
    }
}
