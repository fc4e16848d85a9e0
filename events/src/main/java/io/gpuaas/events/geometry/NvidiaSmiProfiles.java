package io.gpuaas.events.geometry;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the GPU instance profiles of GPU 0 from what {@code nvidia-smi mig -lgip} and {@code nvidia-smi mig -lgipp}
 * print, so a new GPU model's geometry is taken from its own readout rather than typed by hand.
 */
public final class NvidiaSmiProfiles {

    // "|   0  MIG 1g.18gb         19     7/7        16.00      No     16     1     0   |"
    private static final Pattern LGIP_ROW = Pattern.compile("\\|\\s*0\\s+MIG\\s+(\\S+)\\s+(\\d+)\\s+\\d+/(\\d+)\\s.*");
    private static final Pattern COMMA = Pattern.compile(",");
    private static final Pattern COMPUTE = Pattern.compile("(\\d+)g\\..*");
    // "GPU  0 Profile ID 19 Placements: {0,1,2,3,4,5,6}:1" (singular "Placement :" for one start)
    private static final Pattern LGIPP_ROW =
            Pattern.compile("GPU\\s+0\\s+Profile ID\\s+(\\d+)\\s+Placements?\\s*:\\s*\\{([\\d,]+)}:(\\d+)\\s*");

    private NvidiaSmiProfiles() {}

    /**
     * The profiles of GPU 0 in {@code -lgip}'s order from a readout holding what both commands printed (other lines
     * are ignored): name, id and instances (Total) from {@code -lgip}, starts and memory slices from {@code -lgipp},
     * compute slices from the name's {@code <N>g}.
     *
     * @throws IllegalArgumentException when a profile of one command is missing from the other
     */
    public static List<GpuInstanceProfile> parse(String readout) {
        Map<Integer, Integer> sizes = new LinkedHashMap<>();
        Map<Integer, List<Integer>> starts = new LinkedHashMap<>();
        for (String line : readout.lines().toList()) {
            Matcher m = LGIPP_ROW.matcher(line.strip());
            if (m.matches()) {
                int id = Integer.parseInt(m.group(1));
                starts.put(
                        id,
                        COMMA.splitAsStream(m.group(2)).map(Integer::valueOf).toList());
                sizes.put(id, Integer.parseInt(m.group(3)));
            }
        }
        List<GpuInstanceProfile> profiles = new ArrayList<>();
        for (String line : readout.lines().toList()) {
            Matcher m = LGIP_ROW.matcher(line.strip());
            if (!m.matches()) {
                continue;
            }
            String name = m.group(1);
            int id = Integer.parseInt(m.group(2));
            Matcher g = COMPUTE.matcher(name);
            if (!starts.containsKey(id) || !g.matches()) {
                throw new IllegalArgumentException("profile " + name + " (id " + id + ") has no placements or no <N>g");
            }
            int compute = Integer.parseInt(g.group(1));
            int total = Integer.parseInt(m.group(3));
            profiles.add(new GpuInstanceProfile(name, id, compute, sizes.get(id), starts.remove(id), total));
        }
        if (!starts.isEmpty()) {
            throw new IllegalArgumentException("placements of profile ids " + starts.keySet() + " not in -lgip");
        }
        return profiles;
    }
}
