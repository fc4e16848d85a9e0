package io.gpuaas.bench.mig;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A fleet laid out once and never changed: each GPU is one {@link StaticGpu} kind, each of its instances (or the whole
 * GPU) a slot that holds one unit of its profile at a time. A booking takes the first free slots of its profile in
 * GPU order (first fit), all or none; nothing is ever moved or re-laid out.
 *
 * <p>Book-now only: bookings must come in start order, so a slot is free for a whole window exactly when its last
 * booking ended by the window's start (checked). A slot is one long, so a booking costs a scan of its profile's slots.
 */
final class StaticFleet implements Fleet {

    private final Map<String, long[]> freeAt = new LinkedHashMap<>();
    private final int gpus;
    private long lastStart = Long.MIN_VALUE;

    /** {@code counts.get(i)} GPUs of kind {@code kinds.get(i)}, in that order. */
    StaticFleet(List<StaticGpu> kinds, List<Integer> counts) {
        if (kinds.size() != counts.size()) {
            throw new IllegalArgumentException(kinds.size() + " kinds, " + counts.size() + " counts");
        }
        Map<String, List<Long>> slots = new LinkedHashMap<>();
        int total = 0;
        for (int k = 0; k < kinds.size(); k++) {
            StaticGpu kind = kinds.get(k);
            for (int g = 0; g < counts.get(k); g++) {
                if (kind.whole()) {
                    slots.computeIfAbsent(Ask.WHOLE, p -> new ArrayList<>()).add(Long.MIN_VALUE);
                } else {
                    kind.instances().forEach(i -> slots.computeIfAbsent(i.profile(), p -> new ArrayList<>())
                            .add(Long.MIN_VALUE));
                }
            }
            total += counts.get(k);
        }
        slots.forEach((profile, free) ->
                freeAt.put(profile, free.stream().mapToLong(Long::longValue).toArray()));
        this.gpus = total;
    }

    @Override
    public int gpus() {
        return gpus;
    }

    /** How many slots of {@code profile} the fleet has. */
    int slots(String profile) {
        long[] slots = freeAt.get(profile);
        return slots == null ? 0 : slots.length;
    }

    @Override
    public boolean place(Ask ask) {
        if (ask.start() < lastStart) {
            throw new IllegalStateException("book-now replay out of order: " + ask.id() + " starts at " + ask.start()
                    + ", before " + lastStart);
        }
        lastStart = ask.start();
        long[] slots = freeAt.get(ask.profile());
        if (slots == null || slots.length < ask.quantity()) {
            return false;
        }
        int[] taken = new int[ask.quantity()];
        int found = 0;
        for (int i = 0; i < slots.length && found < taken.length; i++) {
            if (slots[i] <= ask.start()) {
                taken[found++] = i;
            }
        }
        if (found < taken.length) {
            return false;
        }
        for (int i : taken) {
            slots[i] = ask.end();
        }
        return true;
    }

    /** Compute slices held at {@code t} over the fleet's, given the compute slices of each profile. */
    double busyShare(long t, Map<String, Integer> computeOf, int gpuCompute) {
        long busy = 0;
        for (Map.Entry<String, long[]> e : freeAt.entrySet()) {
            for (long free : e.getValue()) {
                if (free > t) {
                    busy += computeOf.get(e.getKey());
                }
            }
        }
        return (double) busy / ((long) gpus * gpuCompute);
    }
}
