package io.gpuaas.booking.placement;

import io.gpuaas.events.geometry.GpuInstanceProfile;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * The GPUs of one fleet in address order, each with its {@link GpuSchedule}, and the {@link SliceIndex} over them.
 * Every unit that stays goes on and off through {@link #hold}, {@link #moveEnd} and {@link #unhold}, each over the
 * unit's whole window as held, so the index always matches the schedules; a probe that is taken off before anything else is asked may use the schedule directly. Not thread-safe.
 */
final class FleetGpus {

    private final GeometryRules rules;
    private final GpuAddress[] addresses;
    private final GpuSchedule[] schedules;
    private final Map<GpuAddress, Integer> positions = new HashMap<>();
    private final int[] all;
    private final SliceIndex index;
    /** Where {@link #candidates} collects positions before copying out the ones it keeps. */
    private final int[] scratch;

    private final Map<UnitKind, long[]> needs = new HashMap<>();

    FleetGpus(GeometryRules rules, Collection<GpuAddress> gpus) {
        this.rules = rules;
        this.addresses = gpus.stream().distinct().sorted().toArray(GpuAddress[]::new);
        if (addresses.length == 0) {
            throw new IllegalArgumentException("a fleet needs at least one GPU");
        }
        this.schedules = new GpuSchedule[addresses.length];
        for (int i = 0; i < addresses.length; i++) {
            schedules[i] = new GpuSchedule();
            positions.put(addresses[i], i);
        }
        this.all = IntStream.range(0, addresses.length).toArray();
        this.index = new SliceIndex(addresses.length, rules.geometry().memorySlices());
        this.scratch = new int[addresses.length];
    }

    int size() {
        return addresses.length;
    }

    GpuAddress address(int position) {
        return addresses[position];
    }

    GpuSchedule schedule(int position) {
        return schedules[position];
    }

    GpuSchedule schedule(GpuAddress gpu) {
        return schedules[position(gpu)];
    }

    boolean contains(GpuAddress gpu) {
        return positions.containsKey(gpu);
    }

    List<GpuAddress> addresses() {
        return List.of(addresses);
    }

    void hold(GpuAddress gpu, Held unit, long start, long end) {
        int p = position(gpu);
        schedules[p].add(unit, start, end);
        index.add(p, unit.mask(), start, end);
    }

    void unhold(GpuAddress gpu, Held unit, long start, long end) {
        int p = position(gpu);
        schedules[p].remove(unit, start, end);
        index.remove(p, unit.mask(), start, end);
    }

    /**
     * A unit held over {@code [start, oldEnd)} now held over {@code [start, newEnd)}; {@link #unhold} then takes the new
     * window.
     */
    void moveEnd(GpuAddress gpu, Held unit, long start, long oldEnd, long newEnd) {
        int p = position(gpu);
        if (newEnd > oldEnd) {
            schedules[p].add(unit, oldEnd, newEnd);
        } else if (newEnd < oldEnd) {
            schedules[p].remove(unit, newEnd, oldEnd);
        }
        index.moveEnd(p, unit.mask(), start, oldEnd, newEnd);
    }

    /**
     * The positions, in address order, of the GPUs where a unit of {@code kind} may fit throughout {@code [start,
     * end)}: all but those the index shows holding, inside the window, a slice of every start the kind may take.
     */
    int[] candidates(UnitKind kind, long start, long end) {
        long[] held = index.heldInside(start, end);
        if (held == null) {
            return all;
        }
        long[] needs = needs(kind);
        int[] out = scratch;
        int n = 0;
        for (int g = 0; g < held.length; g++) {
            long h = held[g];
            if (h == 0) {
                out[n++] = g;
                continue;
            }
            for (long need : needs) {
                if (SliceIndex.free(h, need)) {
                    out[n++] = g;
                    break;
                }
            }
        }
        return Arrays.copyOf(out, n);
    }

    /** The slices each start a unit of {@code kind} may take would hold (read only). */
    long[] needs(UnitKind kind) {
        return needs.computeIfAbsent(kind, this::slicesOfEachStart);
    }

    private long[] slicesOfEachStart(UnitKind kind) {
        return switch (kind) {
            case UnitKind.WholeGpu whole -> new long[] {rules.allSlices()};
            case UnitKind.Mig mig -> {
                GpuInstanceProfile profile = rules.profile(mig.profile()).orElseThrow();
                yield profile.starts().stream()
                        .mapToLong(start -> GeometryRules.mask(profile, start))
                        .toArray();
            }
        };
    }

    int position(GpuAddress gpu) {
        Integer p = positions.get(gpu);
        if (p == null) {
            throw new IllegalArgumentException("GPU " + gpu + " is not in the fleet");
        }
        return p;
    }
}
