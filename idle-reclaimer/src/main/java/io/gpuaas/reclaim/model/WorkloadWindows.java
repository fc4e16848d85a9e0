package io.gpuaas.reclaim.model;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiPredicate;

/**
 * The restart-safe state of one workload: the windows of its devices and how far the reclaimer has gone with it.
 * One instance per workload key in the state store; changed only by the single task owning that key.
 */
public final class WorkloadWindows {

    /** How far the reclaimer has gone with the current idle episode. */
    public enum Phase {
        /** Being watched. */
        ACTIVE,
        /** Idleness was reported (keda mode, dry-run, skipped or failed): not again until it is busy again. */
        REPORTED,
        /** Workers were scaled to zero by action {@code actionId}. */
        RECLAIMED
    }

    private final Map<String, DeviceState> devices;
    private Phase phase;
    private String actionId;
    private long phaseSinceMillis;
    private long lastSampleMillis;
    private long retryAtMillis;
    /** Start of the idle window whose ReclaimPending notice was sent; {@link IdlenessWindow#EMPTY} when none is. */
    private long noticedSinceMillis;
    /** No reclaim is requested before this sample time (a granted keep); 0 when never kept. */
    private long keepUntilMillis;
    /** The UTC epoch day of the last granted keep, and the hours granted on it. */
    private long keepDay;

    private int keepHoursOnDay;

    public WorkloadWindows() {
        this(new LinkedHashMap<>(), Phase.ACTIVE, null, 0L, IdlenessWindow.EMPTY, NEVER, IdlenessWindow.EMPTY);
    }

    WorkloadWindows(
            Map<String, DeviceState> devices,
            Phase phase,
            String actionId,
            long phaseSinceMillis,
            long lastSampleMillis,
            long retryAtMillis,
            long noticedSinceMillis) {
        this.devices = devices;
        this.phase = phase;
        this.actionId = actionId;
        this.phaseSinceMillis = phaseSinceMillis;
        this.lastSampleMillis = lastSampleMillis;
        this.retryAtMillis = retryAtMillis;
        this.noticedSinceMillis = noticedSinceMillis;
    }

    /** The keep fields as read from the store (layout 3); a new or older state has none. */
    void restoreKeep(long untilMillis, long day, int hoursOnDay) {
        this.keepUntilMillis = untilMillis;
        this.keepDay = day;
        this.keepHoursOnDay = hoursOnDay;
    }

    /** A keep was granted: {@code hoursOnDay} granted in all on UTC day {@code day}, no reclaim before {@code until}. */
    public void markKept(long day, int hoursOnDay, long untilMillis) {
        keepDay = day;
        keepHoursOnDay = hoursOnDay;
        keepUntilMillis = Math.max(keepUntilMillis, untilMillis);
    }

    /** Whether a granted keep still holds the reclaim back at sample time {@code nowMillis}. */
    public boolean keptAt(long nowMillis) {
        return nowMillis < keepUntilMillis;
    }

    public long keepUntilMillis() {
        return keepUntilMillis;
    }

    public long keepDay() {
        return keepDay;
    }

    public int keepHoursOnDay() {
        return keepHoursOnDay;
    }

    /** {@link #retryAtMillis()} of an episode that is not retried. */
    public static final long NEVER = Long.MAX_VALUE;

    /**
     * Adds one sample. A busy or null sample ends any reported or reclaimed episode: the workload is working
     * again (a serverless predictor woken by traffic, a cluster scaled up by hand) and is watched from scratch.
     *
     * @return true when the sample was busy or without a value
     */
    public boolean accept(AttributedSample sample, IdlePolicy policy) {
        DeviceState device = devices.get(sample.device());
        long slotMillis = policy.sampleInterval().toMillis();
        int slots = windowSlots(device, sample, policy);
        if (device == null
                || device.window().slotMillis() != slotMillis
                || device.window().slots() != slots) {
            // A new device, the policy's window changed, or the device's utilization now comes from another counter:
            // start this device over rather than reinterpret its bits.
            device = new DeviceState(
                    new IdlenessWindow(slotMillis, slots), sample.pod(), sample.group(), sample.podStartMillis());
            devices.put(sample.device(), device);
        } else if (!sample.pod().equals(device.pod()) || sample.podStartMillis() != device.podStartMillis()) {
            device = device.withPod(sample.pod(), sample.group(), sample.podStartMillis());
            devices.put(sample.device(), device);
        }
        boolean bad = device.window()
                .record(sample.timeMillis(), sample.utilization(), sample.mediaBusy(), policy.threshold());
        lastSampleMillis = Math.max(lastSampleMillis, sample.timeMillis());
        if (bad && device.window().lastBadMillis() == sample.timeMillis()) {
            // The device's idle run starts over, so the noticed window will not close idle: a new run, a new notice.
            noticedSinceMillis = IdlenessWindow.EMPTY;
        }
        if (bad && phase != Phase.ACTIVE) {
            markResumed(sample.timeMillis());
        }
        return bad;
    }

    /**
     * The slots of the window {@code sample}'s device is judged over: longer for a device read by GPU_UTIL alone. A
     * sample without a utilization names no counter, so it keeps the device's window (it counts as busy anyway).
     */
    private static int windowSlots(DeviceState device, AttributedSample sample, IdlePolicy policy) {
        int slots = policy.slotsFor(sample.gpuUtilOnly());
        if (sample.utilization() == null && device != null && device.window().slots() == policy.slotsFor(true)) {
            return device.window().slots();
        }
        return slots;
    }

    /**
     * Judges the workload at {@code nowMillis}: idle only when it has devices and every one of them is idle.
     *
     * @param resumedAtMillis the last resume of the workload (0 when never): the warm-up counts from it too
     */
    public WorkloadVerdict evaluate(long nowMillis, IdlePolicy policy, long resumedAtMillis) {
        if (devices.isEmpty()) {
            return WorkloadVerdict.noDevices(nowMillis);
        }
        int seen = 0;
        int expected = 0;
        double max = 0.0;
        long idleMillis = Long.MAX_VALUE;
        long windowStart = nowMillis;
        DeviceVerdict.Reason reason = DeviceVerdict.Reason.IDLE;
        long warmUp = policy.warmUp().toMillis();
        for (DeviceState device : devices.values()) {
            long notBefore = Math.max(device.podStartMillis(), resumedAtMillis) + warmUp;
            int slots = device.window().slots();
            DeviceVerdict v = device.window().verdictAt(nowMillis, notBefore, policy.requiredSamples(slots));
            seen += v.samples();
            expected += v.slots();
            max = Math.max(max, v.maxUtilization());
            idleMillis = Math.min(idleMillis, v.idleMillis());
            windowStart = v.windowStart();
            if (!v.idle() && reason == DeviceVerdict.Reason.IDLE) {
                reason = v.reason();
            }
        }
        boolean idle = reason == DeviceVerdict.Reason.IDLE;
        return new WorkloadVerdict(
                idle, devices.size(), (double) seen / expected, max, windowStart, idle ? idleMillis : 0, reason);
    }

    /**
     * When the pending window began, if every device has passed the idleness rule over the last
     * {@link IdlePolicy#pendingSlots()} slots (the part of the window that must have passed before the ReclaimPending
     * notice); {@link IdlenessWindow#EMPTY} otherwise, or when the workload has no devices. The window began when
     * the last of its devices began to be idle.
     */
    public long pendingSince(long nowMillis, IdlePolicy policy, long resumedAtMillis) {
        if (devices.isEmpty()) {
            return IdlenessWindow.EMPTY;
        }
        long since = IdlenessWindow.EMPTY;
        long warmUp = policy.warmUp().toMillis();
        for (DeviceState device : devices.values()) {
            long notBefore = Math.max(device.podStartMillis(), resumedAtMillis) + warmUp;
            int span = policy.pendingSlots(device.window().slots());
            long deviceSince = device.window().idleSinceAt(nowMillis, notBefore, span, policy.requiredSamples(span));
            if (deviceSince == IdlenessWindow.EMPTY) {
                return IdlenessWindow.EMPTY;
            }
            since = Math.max(since, deviceSince);
        }
        return since;
    }

    /** Whether the current idle run has had its ReclaimPending notice. */
    public boolean noticed() {
        return noticedSinceMillis != IdlenessWindow.EMPTY;
    }

    /** The ReclaimPending notice of the window that began at {@code sinceMillis} was sent. */
    public void markNoticed(long sinceMillis) {
        noticedSinceMillis = sinceMillis;
    }

    /** Start of the noticed window ({@link IdlenessWindow#EMPTY} when none). */
    public long noticedSinceMillis() {
        return noticedSinceMillis;
    }

    /**
     * Pods that have reported fewer devices than they ask for: a device that never sent a sample is doubt, and the
     * workload is not judged while any exists.
     */
    public boolean missingDevices(Map<String, Integer> gpusPerPod) {
        for (Map.Entry<String, Integer> pod : gpusPerPod.entrySet()) {
            if (pod.getValue() <= 0) {
                continue;
            }
            int seen = 0;
            for (DeviceState d : devices.values()) {
                if (d.pod().equals(pod.getKey())) {
                    seen++;
                }
            }
            if (seen < pod.getValue()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Forgets devices whose pod no longer belongs to this workload (deleted, or now someone else's). A device whose
     * pod still exists but sends nothing stays, and keeps the workload from counting as idle.
     */
    public void retainDevices(BiPredicate<String, DeviceState> stillAttributed) {
        devices.entrySet().removeIf(e -> !stillAttributed.test(e.getKey(), e.getValue()));
    }

    /**
     * The idle episode was reported without a scale-down.
     *
     * @param retryAt sample time from which a scale-down is tried again ({@link #NEVER} for none)
     */
    public void markReported(long nowMillis, long retryAt) {
        phase = Phase.REPORTED;
        actionId = null;
        phaseSinceMillis = nowMillis;
        retryAtMillis = retryAt;
    }

    /** Whether the workload is being watched for a (new or retried) decision at {@code sampleMillis}. */
    public boolean awaitingDecision(long sampleMillis) {
        return phase == Phase.ACTIVE || (phase == Phase.REPORTED && sampleMillis >= retryAtMillis);
    }

    public long retryAtMillis() {
        return retryAtMillis;
    }

    public void markReclaimed(String id, long nowMillis) {
        phase = Phase.RECLAIMED;
        actionId = id;
        phaseSinceMillis = nowMillis;
    }

    /** The workload was resumed: watch it again from scratch. */
    public void markResumed(long nowMillis) {
        phase = Phase.ACTIVE;
        actionId = null;
        noticedSinceMillis = IdlenessWindow.EMPTY;
        phaseSinceMillis = nowMillis;
        retryAtMillis = NEVER;
    }

    public Phase phase() {
        return phase;
    }

    public String actionId() {
        return actionId;
    }

    public long phaseSinceMillis() {
        return phaseSinceMillis;
    }

    public long lastSampleMillis() {
        return lastSampleMillis;
    }

    public Map<String, DeviceState> devices() {
        return devices;
    }
}
