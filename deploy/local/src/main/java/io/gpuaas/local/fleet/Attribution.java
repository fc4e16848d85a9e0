package io.gpuaas.local.fleet;

import java.util.Optional;

/**
 * The pod a device is handed to, as the kubelet pod-resources API tells dcgm-exporter, plus the workload whose
 * busy/idle phases drive the device.
 *
 * @param pod       pod name
 * @param namespace pod namespace
 * @param container container holding the device
 * @param podUid    pod uid
 * @param workload  namespace/kind/name of the owning RayCluster or InferenceService
 * @param since     when the pod started: its phases count from there, so a (re)started workload begins busy
 * @param forced    a utilization forced through the owner's {@value #ANNOTATION} annotation
 * @param video     the owner's annotation is {@value #VIDEO}: the devices decode video (DEC_UTIL about 46 %) with the
 *                  graphics engine all but idle, as a real GPU does
 */
public record Attribution(
        String pod,
        String namespace,
        String container,
        String podUid,
        String workload,
        java.time.Instant since,
        Optional<Double> forced,
        boolean video) {

    /** A workload that is not video-shaped. */
    public Attribution(
            String pod,
            String namespace,
            String container,
            String podUid,
            String workload,
            java.time.Instant since,
            Optional<Double> forced) {
        this(pod, namespace, container, podUid, workload, since, forced, false);
    }

    /** Owner annotation that pins the simulated utilization: {@code busy}, {@code idle}, {@code video} or a ratio. */
    public static final String ANNOTATION = "gpuaas.io/simulated-utilization";

    /** The annotation value of a video-decoding workload. */
    public static final String VIDEO = "video";

    /** Engine activity of a GPU that only decodes video (a real one read about 0.0002 beside 46 % DEC_UTIL). */
    static final double VIDEO_ENGINE_ACTIVITY = 0.0002;

    /** Whether the annotation value makes the workload video-shaped. */
    public static boolean isVideo(String value) {
        return value != null && VIDEO.equalsIgnoreCase(value.trim());
    }

    /** Parses the annotation value; anything unreadable means "follow the phases". */
    public static Optional<Double> parseForced(String value) {
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        return switch (value.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "busy" -> Optional.of(0.85);
            case "idle" -> Optional.of(0.0);
            case VIDEO -> Optional.of(VIDEO_ENGINE_ACTIVITY);
            default -> parseRatio(value.trim());
        };
    }

    private static Optional<Double> parseRatio(String value) {
        try {
            double ratio = Double.parseDouble(value);
            return ratio >= 0 && ratio <= 1 ? Optional.of(ratio) : Optional.empty();
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
