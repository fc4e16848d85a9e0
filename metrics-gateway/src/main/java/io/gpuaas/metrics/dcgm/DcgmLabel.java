package io.gpuaas.metrics.dcgm;

import java.util.ArrayList;
import java.util.List;

/**
 * The dcgm-exporter labels a GpuScrape needs. Matching ignores case ({@code Hostname}/{@code hostname},
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

    private final byte[][] names;

    DcgmLabel(String... names) {
        this.names = new byte[names.length][];
        for (int i = 0; i < names.length; i++) {
            this.names[i] = Ascii.bytes(names[i]);
        }
    }

    /** Names by length, so a name is compared with the one or two candidates of its length only. */
    private static final DcgmLabel[][] BY_LENGTH = byLength();

    private static DcgmLabel[][] byLength() {
        List<List<DcgmLabel>> lists = new ArrayList<>();
        for (DcgmLabel label : values()) {
            for (byte[] name : label.names) {
                while (lists.size() <= name.length) {
                    lists.add(new ArrayList<>());
                }
                lists.get(name.length).add(label);
            }
        }
        return lists.stream().map(list -> list.toArray(DcgmLabel[]::new)).toArray(DcgmLabel[][]::new);
    }

    /** The label named by {@code text[from, to)}, or null for a label a GpuScrape ignores. */
    static DcgmLabel of(byte[] text, int from, int to) {
        int length = to - from;
        if (length >= BY_LENGTH.length) {
            return null;
        }
        for (DcgmLabel candidate : BY_LENGTH[length]) {
            for (byte[] name : candidate.names) {
                if (Ascii.equalsIgnoreCase(text, from, to, name)) {
                    return candidate;
                }
            }
        }
        return null;
    }
}
