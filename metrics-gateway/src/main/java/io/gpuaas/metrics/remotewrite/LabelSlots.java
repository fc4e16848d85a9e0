package io.gpuaas.metrics.remotewrite;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Which label of a series fills which part of a device reading. Names match ignoring ASCII case, as the text parser
 * matches them ({@code Hostname}/{@code hostname}, {@code UUID}/{@code uuid}). Where several names fill one slot the
 * first listed wins:
 * <ul>
 *   <li>{@code exported_pod} over {@code pod} over {@code pod_name} (and the same for namespace and container): a
 *       scrape job that attaches the exporter pod's own {@code pod}/{@code namespace}/{@code container} as target
 *       labels without {@code honor_labels} (Prometheus Operator's ServiceMonitors and PodMonitors do) makes
 *       Prometheus rename the exporter's attribution labels to {@code exported_*}. On such a job every series has
 *       the target's {@code pod}, also on a GPU no pod holds, so with {@code targetPodLabels} the plain names are
 *       not read at all. {@code pod_name}/{@code pod_namespace}/{@code container_name} are old-namespace mode's;</li>
 *   <li>the node: the configured labels in their order (a relabel of {@code __meta_kubernetes_pod_node_name}),
 *       else {@code instance}.</li>
 * </ul>
 * Labels with an empty value count as absent (Prometheus drops them anyway). Immutable; one per gateway.
 */
public final class LabelSlots {

    enum Slot {
        NAME,
        UUID,
        GPU_INSTANCE_ID,
        GPU_INSTANCE_PROFILE,
        GPU,
        MODEL_NAME,
        HOSTNAME,
        POD,
        NAMESPACE,
        CONTAINER,
        NODE,
        INSTANCE
    }

    static final int COUNT = Slot.values().length;

    private record Candidate(byte[] upperName, Slot slot, int rank) {}

    /** Candidates by name length, so a label name is compared with the few of its length only. */
    private final Candidate[][] byLength;

    /**
     * @param nodeLabels      labels naming the node, first present wins; {@code instance} after them
     * @param targetPodLabels whether plain {@code pod}/{@code namespace}/{@code container} are the scrape target's
     *                        (the exporter pod's), so that only {@code exported_*} and old-namespace labels attribute
     */
    public LabelSlots(List<String> nodeLabels, boolean targetPodLabels) {
        List<Candidate> all = new ArrayList<>();
        add(all, Slot.NAME, "__name__");
        add(all, Slot.UUID, "UUID");
        add(all, Slot.GPU_INSTANCE_ID, "GPU_I_ID");
        add(all, Slot.GPU_INSTANCE_PROFILE, "GPU_I_PROFILE");
        add(all, Slot.GPU, "gpu");
        add(all, Slot.MODEL_NAME, "modelName");
        add(all, Slot.HOSTNAME, "Hostname");
        if (targetPodLabels) {
            add(all, Slot.POD, "exported_pod", "pod_name");
            add(all, Slot.NAMESPACE, "exported_namespace", "pod_namespace");
            add(all, Slot.CONTAINER, "exported_container", "container_name");
        } else {
            add(all, Slot.POD, "exported_pod", "pod", "pod_name");
            add(all, Slot.NAMESPACE, "exported_namespace", "namespace", "pod_namespace");
            add(all, Slot.CONTAINER, "exported_container", "container", "container_name");
        }
        add(all, Slot.NODE, nodeLabels.toArray(String[]::new));
        add(all, Slot.INSTANCE, "instance");
        int longest = all.stream().mapToInt(c -> c.upperName().length).max().orElse(0);
        List<List<Candidate>> buckets = new ArrayList<>();
        for (int length = 0; length <= longest; length++) {
            buckets.add(new ArrayList<>());
        }
        all.forEach(c -> buckets.get(c.upperName().length).add(c));
        byLength = buckets.stream().map(b -> b.toArray(Candidate[]::new)).toArray(Candidate[][]::new);
    }

    private static void add(List<Candidate> all, Slot slot, String... names) {
        for (int rank = 0; rank < names.length; rank++) {
            all.add(new Candidate(upper(names[rank]), slot, rank));
        }
    }

    private static final byte[] NAME = upper("__name__");

    private static byte[] upper(String name) {
        return name.toUpperCase(Locale.ROOT).getBytes(StandardCharsets.US_ASCII);
    }

    /** The index of {@code series}' {@code __name__} label, -1 when it has none (or an empty one). */
    int nameLabel(Series series) {
        for (int label = 0; label < series.labelCount(); label++) {
            if (series.nameLength(label) == NAME.length
                    && series.nameEqualsIgnoreCase(label, NAME)
                    && !series.valueEmpty(label)) {
                return label;
            }
        }
        return -1;
    }

    /**
     * Fills {@code index[slot]} with the label that fills each slot of {@code series}, -1 where none does;
     * {@code rank} is scratch space of the same length (passed in so that a series costs no allocation).
     */
    void resolve(Series series, int[] index, int[] rank) {
        Arrays.fill(index, -1);
        for (int label = 0; label < series.labelCount(); label++) {
            if (series.valueEmpty(label)) {
                continue;
            }
            int length = series.nameLength(label);
            if (length >= byLength.length) {
                continue;
            }
            for (Candidate candidate : byLength[length]) {
                int slot = candidate.slot().ordinal();
                if (series.nameEqualsIgnoreCase(label, candidate.upperName())
                        && (index[slot] < 0 || candidate.rank() < rank[slot])) {
                    index[slot] = label;
                    rank[slot] = candidate.rank();
                }
            }
        }
    }
}
