package io.gpuaas.reclaim.keep;

import io.gpuaas.events.reclaim.ReclaimEvent.ReclaimKept;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.reclaim.config.KeepSettings;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The HTTP edge's view of each workload's keeps: the latest {@code ReclaimKept} the stream granted (read back from
 * {@code reclaim-events}) and the answers this replica sent that the stream has not answered yet, so two quick answers
 * to one replica cannot both pass the day's bound. The stream decides the same bounds from its own state; this view
 * only lets the edge refuse, with what is left, what the stream would not grant.
 */
public final class KeepBook {

    private static final long HOUR_MILLIS = 3_600_000L;
    private static final long DAY_MILLIS = 24 * HOUR_MILLIS;

    /** What the edge answers: granted (as the stream will decide it), or refused beyond a bound. */
    public sealed interface Verdict {}

    /** Within the bounds: the projected end of the keep, and the day's hours with this answer. */
    public record Within(Instant keptUntil, int hoursToday, int hoursLeft) implements Verdict {}

    /** Over {@code bound} hours ({@code per-answer} or {@code per-day}); {@code left} may still be asked today. */
    public record Beyond(String bound, int maxHours, int left) implements Verdict {}

    private record Granted(long day, int hoursOnDay, long untilMillis) {}

    private record Asked(long day, int hours, long atMillis) {}

    private final KeepSettings settings;
    private final Map<WorkloadRef, Granted> granted = new HashMap<>();
    private final Map<WorkloadRef, Map<String, Asked>> asked = new HashMap<>();

    public KeepBook(KeepSettings settings) {
        this.settings = settings;
    }

    /** A grant the stream published. */
    public synchronized void granted(ReclaimKept kept) {
        long day = Math.floorDiv(kept.time().toEpochMilli(), DAY_MILLIS);
        Granted before = granted.get(kept.workload());
        if (before == null || day >= before.day()) {
            granted.put(
                    kept.workload(),
                    new Granted(day, kept.hoursToday(), kept.keptUntil().toEpochMilli()));
        }
        Map<String, Asked> mine = asked.get(kept.workload());
        if (mine != null) {
            mine.remove(kept.requestId());
            if (mine.isEmpty()) {
                asked.remove(kept.workload());
            }
        }
    }

    /**
     * Checks an answer of {@code hours} at {@code at} against both bounds and, within them, holds its hours for the
     * day until the stream's grant is read back.
     */
    public synchronized Verdict reserve(WorkloadRef ref, String requestId, int hours, Instant at) {
        long now = at.toEpochMilli();
        long day = Math.floorDiv(now, DAY_MILLIS);
        Granted g = granted.get(ref);
        int used = g != null && g.day() == day ? g.hoursOnDay() : 0;
        long until = g != null ? g.untilMillis() : 0L;
        for (Asked a : asked.getOrDefault(ref, Map.of()).values()) {
            if (a.day() == day) {
                used += a.hours();
                until = Math.max(until, a.atMillis()) + a.hours() * HOUR_MILLIS;
            }
        }
        int left = Math.max(0, settings.maxHoursPerDay() - used);
        if (hours > settings.maxHoursPerAnswer()) {
            return new Beyond("per-answer", settings.maxHoursPerAnswer(), Math.min(left, settings.maxHoursPerAnswer()));
        }
        if (hours > left) {
            return new Beyond("per-day", settings.maxHoursPerDay(), left);
        }
        asked.computeIfAbsent(ref, r -> new LinkedHashMap<>()).put(requestId, new Asked(day, hours, now));
        return new Within(Instant.ofEpochMilli(Math.max(until, now) + hours * HOUR_MILLIS), used + hours, left - hours);
    }

    /** The answer could not be sent: its hours are free again. */
    public synchronized void release(WorkloadRef ref, String requestId) {
        Map<String, Asked> mine = asked.get(ref);
        if (mine != null) {
            mine.remove(requestId);
        }
    }
}
