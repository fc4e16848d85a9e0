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
 */
public record Attribution(
        String pod,
        String namespace,
        String container,
        String podUid,
        String workload,
        java.time.Instant since,
        Optional<Double> forced) {

    /** Owner annotation that pins the simulated utilization: {@code busy}, {@code idle} or a ratio 0..1. */
    public static final String ANNOTATION = "gpuaas.io/simulated-utilization";

    /** Parses the annotation value; anything unreadable means "follow the phases". */
    public static Optional<Double> parseForced(String value) {
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        return switch (value.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "busy" -> Optional.of(0.85);
            case "idle" -> Optional.of(0.0);
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
