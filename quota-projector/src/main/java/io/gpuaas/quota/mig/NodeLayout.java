package io.gpuaas.quota.mig;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * One node's layout: per GPU index what it runs. Its mig-parted config name is derived from its canonical form, so
 * the same layout on two nodes is one config.
 *
 * @param gpus GPU index to layout, for every GPU of the node
 */
public record NodeLayout(SortedMap<Integer, GpuLayout> gpus) {

    /** Prefix of every config gpuaas writes into the mig-parted ConfigMap. */
    public static final String CONFIG_PREFIX = "gpuaas-";

    public NodeLayout {
        gpus = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(gpus));
    }

    /** Every one of {@code count} GPUs whole (what {@code all-disabled} gives). */
    public static NodeLayout allWhole(int count) {
        SortedMap<Integer, GpuLayout> gpus = new TreeMap<>();
        for (int i = 0; i < count; i++) {
            gpus.put(i, GpuLayout.WHOLE);
        }
        return new NodeLayout(gpus);
    }

    /** This layout with {@code changes} applied. */
    public NodeLayout with(Map<Integer, GpuLayout> changes) {
        SortedMap<Integer, GpuLayout> next = new TreeMap<>(gpus);
        next.putAll(changes);
        return new NodeLayout(next);
    }

    /** {@code <index>=<layout>} per GPU, joined by {@code ;}: what the config name is a hash of. */
    public String canonical() {
        return gpus.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue().canonical())
                .collect(Collectors.joining(";"));
    }

    /** {@code gpuaas-<first 10 hex of sha256(canonical)>}. */
    public String configName() {
        try {
            byte[] digest =
                    MessageDigest.getInstance("SHA-256").digest(canonical().getBytes(StandardCharsets.UTF_8));
            return CONFIG_PREFIX + HexFormat.of().formatHex(digest).substring(0, 10);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is always there", e);
        }
    }
}
