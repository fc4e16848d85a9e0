package io.gpuaas.local.mig;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A mig-parted config file ({@code version: v1}, {@code mig-configs:} name → entries), as the ConfigMap
 * {@value #NAMESPACE}/{@value #NAME} holds it under {@value #KEY}. Each entry selects GPUs ({@code devices: all} or a
 * list of indexes) and says whether they run MIG and which instances ({@code mig-devices: {profile: count}}).
 * {@code device-filter} is not read: the local fleet has one GPU model.
 *
 * @param configs the named configs, in file order
 */
public record MigPartedConfig(Map<String, List<Entry>> configs) {

    public static final String NAMESPACE = "gpu-operator";
    public static final String NAME = "gpuaas-mig-parted-config";
    public static final String KEY = "config.yaml";
    /** The config every mig-parted file gpuaas writes holds, and the one a MIG manager without a file knows. */
    public static final String ALL_DISABLED = "all-disabled";

    /** The config the MIG manager knows before gpuaas wrote any: {@value #ALL_DISABLED} alone. */
    public static final MigPartedConfig DEFAULT =
            new MigPartedConfig(Map.of(ALL_DISABLED, List.of(new Entry(null, false, Map.of()))));

    private static final KubernetesSerialization YAML = new KubernetesSerialization();

    public MigPartedConfig {
        configs = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(configs));
    }

    /**
     * One entry of a config.
     *
     * @param devices    the GPU indexes it applies to, or null for {@code all}
     * @param migEnabled {@code mig-enabled}
     * @param migDevices {@code mig-devices}: instances per profile on each selected GPU (empty without MIG)
     */
    public record Entry(List<Integer> devices, boolean migEnabled, Map<String, Integer> migDevices) {

        public Entry {
            devices = devices == null ? null : List.copyOf(devices);
            migDevices = java.util.Collections.unmodifiableMap(new TreeMap<>(migDevices));
        }

        /** Whether this entry selects GPU {@code index}. */
        public boolean selects(int index) {
            return devices == null || devices.contains(index);
        }
    }

    public Optional<List<Entry>> config(String name) {
        return Optional.ofNullable(configs.get(name));
    }

    /**
     * Reads the file's text.
     *
     * @throws IllegalArgumentException when it is not mig-parted's v1 format
     */
    public static MigPartedConfig parse(String yaml) {
        Object root;
        try {
            root = YAML.unmarshal(yaml, Map.class);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not YAML: " + e.getMessage(), e);
        }
        Map<?, ?> file = map(root, "the file");
        if (!"v1".equals(String.valueOf(file.get("version")))) {
            throw new IllegalArgumentException("version must be v1, got " + file.get("version"));
        }
        Map<String, List<Entry>> configs = new LinkedHashMap<>();
        map(file.get("mig-configs"), "mig-configs").forEach((name, entries) -> {
            if (!(entries instanceof List<?> list)) {
                throw new IllegalArgumentException("mig-configs." + name + " must be a list of entries");
            }
            List<Entry> parsed = new ArrayList<>();
            for (Object entry : list) {
                parsed.add(entry(String.valueOf(name), map(entry, "an entry of " + name)));
            }
            configs.put(String.valueOf(name), parsed);
        });
        return new MigPartedConfig(configs);
    }

    private static Entry entry(String config, Map<?, ?> entry) {
        Object devices = entry.get("devices");
        List<Integer> indexes = null;
        if (devices instanceof List<?> list) {
            indexes = list.stream().map(d -> integer(d, config + " devices")).toList();
        } else if (!"all".equals(devices)) {
            throw new IllegalArgumentException(
                    config + ": devices must be all or a list of GPU indexes, got " + devices);
        }
        Object enabled = entry.get("mig-enabled");
        if (!(enabled instanceof Boolean migEnabled)) {
            throw new IllegalArgumentException(config + ": mig-enabled must be true or false, got " + enabled);
        }
        Map<String, Integer> migDevices = new LinkedHashMap<>();
        if (entry.get("mig-devices") != null) {
            map(entry.get("mig-devices"), config + " mig-devices")
                    .forEach((profile, count) ->
                            migDevices.put(String.valueOf(profile), integer(count, config + " mig-devices")));
        }
        if (!migEnabled && migDevices.values().stream().anyMatch(c -> c > 0)) {
            throw new IllegalArgumentException(config + ": mig-devices on GPUs with mig-enabled false");
        }
        return new Entry(indexes, migEnabled, migDevices);
    }

    private static Map<?, ?> map(Object value, String what) {
        if (value instanceof Map<?, ?> map) {
            return map;
        }
        throw new IllegalArgumentException(what + " must be a mapping");
    }

    private static int integer(Object value, String what) {
        if (value instanceof Number number && number.doubleValue() == number.intValue() && number.intValue() >= 0) {
            return number.intValue();
        }
        throw new IllegalArgumentException(what + ": " + value + " is not a whole number >= 0");
    }
}
