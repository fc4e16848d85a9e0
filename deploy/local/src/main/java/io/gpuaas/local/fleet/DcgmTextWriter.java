package io.gpuaas.local.fleet;

import io.gpuaas.events.gpu.GpuActivity;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Renders one node's scrape in dcgm-exporter's text format: HELP and TYPE per field, then one sample per device with
 * the exporter's label set and order. Devices handed to a pod carry its container, namespace, pod and pod_uid labels;
 * MIG instances carry GPU_I_PROFILE and GPU_I_ID and, as on real hardware, no DCGM_FI_DEV_GPU_UTIL.
 */
public final class DcgmTextWriter {

    static final String DRIVER_VERSION = "580.105.08";
    private static final double IDLE_POWER_W = 75;
    private static final double MAX_POWER_W = 700;
    private static final double RESERVED_MIB = 536;

    private final UtilizationModel model;
    /** Energy counters per physical GPU: they must only grow, so they are integrated scrape by scrape. */
    private final Map<String, double[]> energy = new HashMap<>();

    public DcgmTextWriter(UtilizationModel model) {
        this.model = model;
    }

    /** The scrape of {@code node} at {@code now}, with devices attributed as {@code attributions} (by device key). */
    public synchronized String render(GpuNode node, Map<String, Attribution> attributions, Instant now) {
        Map<String, DeviceReading> readings = readings(node, attributions, now);
        StringBuilder text = new StringBuilder(node.devices().size() * 4096);
        for (DcgmField field : DcgmField.DEFAULT_COUNTERS) {
            text.append("# HELP ")
                    .append(field.name())
                    .append(' ')
                    .append(field.help())
                    .append('\n');
            text.append("# TYPE ")
                    .append(field.name())
                    .append(' ')
                    .append(field.type())
                    .append('\n');
            for (GpuDevice device : node.devices()) {
                if (device.mig() && !field.onMig()) {
                    continue;
                }
                text.append(field.name()).append('{');
                labels(text, device, attributions.get(device.key()));
                text.append("} ")
                        .append(field.value().apply(readings.get(device.key())))
                        .append('\n');
            }
        }
        return text.toString();
    }

    private Map<String, DeviceReading> readings(GpuNode node, Map<String, Attribution> attributions, Instant now) {
        Map<String, Double> utilization = new HashMap<>();
        Map<Integer, Double> gpuActivity = new TreeMap<>();
        for (GpuDevice device : node.devices()) {
            Attribution attribution = attributions.get(device.key());
            double util = attribution == null ? 0 : model.utilization(attribution, device.key(), now);
            utilization.put(device.key(), util);
            gpuActivity.merge(device.gpuIndex(), util * computeShare(device), Double::sum);
        }
        Map<String, DeviceReading> readings = new HashMap<>();
        for (GpuDevice device : node.devices()) {
            double gpuUtil = Math.min(1, gpuActivity.get(device.gpuIndex()));
            double power = IDLE_POWER_W + gpuUtil * (MAX_POWER_W - IDLE_POWER_W);
            double energyMj = integrate(device.uuid(), power, now);
            double util = utilization.get(device.key());
            Attribution attribution = attributions.get(device.key());
            double used = usedMemory(device, attribution, util);
            double decoder = attribution == null ? 0 : model.decoderPercent(attribution, device.key(), now);
            double free = Math.max(0, device.memoryMib() - used - (device.mig() ? 0 : RESERVED_MIB));
            readings.put(
                    device.key(),
                    new DeviceReading(
                            util, smClockMhz(gpuUtil), 3201, 30 + gpuUtil * 45, power, energyMj, used, free, decoder));
        }
        return readings;
    }

    // Boost clock whenever the GPU counts as busy, by the threshold idle-reclaimer and metrics-gateway use.
    static double smClockMhz(double gpuActivity) {
        return gpuActivity > GpuActivity.DEFAULT_IDLE_THRESHOLD ? 1980 : 345;
    }

    // A workload keeps its model or dataset resident while idle; only an unattributed device is empty.
    private static double usedMemory(GpuDevice device, Attribution attribution, double util) {
        if (attribution == null) {
            return 0;
        }
        return device.memoryMib() * (util > 0.1 ? 0.72 : 0.55);
    }

    private static double computeShare(GpuDevice device) {
        return device.mig() ? Character.getNumericValue(device.migProfile().charAt(0)) / 7.0 : 1.0;
    }

    private double integrate(String uuid, double powerW, Instant now) {
        double[] state = energy.computeIfAbsent(
                uuid, u -> new double[] {1_000_000_000d + Math.abs(u.hashCode() % 1_000_000_000), now.toEpochMilli()});
        double elapsedMs = now.toEpochMilli() - state[1];
        if (elapsedMs > 0) {
            // W × ms = mJ
            state[0] += powerW * elapsedMs;
            state[1] = now.toEpochMilli();
        }
        return state[0];
    }

    private static void labels(StringBuilder text, GpuDevice device, Attribution attribution) {
        label(text, "gpu", Integer.toString(device.gpuIndex()));
        label(text, "UUID", device.uuid());
        label(text, "pci_bus_id", device.pciBusId());
        label(text, "device", "nvidia" + device.gpuIndex());
        label(text, "modelName", FleetLayout.MODEL);
        if (device.mig()) {
            label(text, "GPU_I_PROFILE", device.migProfile());
            label(text, "GPU_I_ID", Integer.toString(device.gpuInstanceId()));
        }
        label(text, "Hostname", device.hostname());
        label(text, "DCGM_FI_DRIVER_VERSION", DRIVER_VERSION);
        if (attribution != null) {
            label(text, "container", attribution.container());
            label(text, "namespace", attribution.namespace());
            label(text, "pod", attribution.pod());
            label(text, "pod_uid", attribution.podUid());
        }
        text.setLength(text.length() - 1);
    }

    private static void label(StringBuilder text, String name, String value) {
        text.append(name)
                .append("=\"")
                .append(value == null ? "" : escape(value))
                .append("\",");
    }

    private static String escape(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    static List<String> fieldNames() {
        return DcgmField.DEFAULT_COUNTERS.stream().map(DcgmField::name).toList();
    }
}
