package io.gpuaas.metrics.dcgm;

/**
 * The dcgm-exporter labels a GpuSample needs. Matching ignores case ({@code Hostname}/{@code hostname},
 * {@code UUID}/{@code uuid}); {@code pod_name}, {@code pod_namespace} and {@code container_name} are the
 * labels of old-namespace mode ({@code --kubernetes-use-old-namespace}) and fill the same slots.
 */
enum DcgmLabel {
    HOSTNAME("Hostname"),
    UUID("UUID"),
    GPU("gpu"),
    MODEL_NAME("modelName"),
    GPU_INSTANCE_ID("GPU_I_ID"),
    GPU_INSTANCE_PROFILE("GPU_I_PROFILE"),
    POD("pod", "pod_name"),
    NAMESPACE("namespace", "pod_namespace"),
    CONTAINER("container", "container_name");

    static final int COUNT = values().length;
    private static final DcgmLabel[] VALUES = values();

    private final byte[][] names;

    DcgmLabel(String... names) {
        this.names = new byte[names.length][];
        for (int i = 0; i < names.length; i++) {
            this.names[i] = Ascii.bytes(names[i]);
        }
    }

    /** The label named by {@code text[from, to)}, or null for a label a GpuSample ignores. */
    static DcgmLabel of(byte[] text, int from, int to) {
        for (DcgmLabel label : VALUES) {
            for (byte[] name : label.names) {
                if (Ascii.equalsIgnoreCase(text, from, to, name)) {
                    return label;
                }
            }
        }
        return null;
    }
}
