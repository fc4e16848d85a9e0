package io.gpuaas.reclaim.model;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Compact binary form of {@link WorkloadWindows} for the state store and its changelog. Written on every sample,
 * so it is a plain length-prefixed layout (that of {@link java.io.DataOutputStream}, written by {@link Binary})
 * rather than JSON; the leading version byte lets a later layout coexist.
 */
public final class WorkloadWindowsCodec {

    /**
     * 3 added the keep (until, UTC day, hours on it) after the noticed window's start; 2 added that start after
     * {@code retryAt}; both older layouts are still read (without a keep).
     */
    private static final byte VERSION = 3;

    private static final byte VERSION_2 = 2;

    private static final byte VERSION_1 = 1;
    /** Fixed bytes of one window besides its bit words. */
    private static final int WINDOW_FIXED = 8 + 4 + 8 + 8 + 8 + 8 + 2;
    /** Fixed bytes of one device besides its strings and bit words. */
    private static final int DEVICE_FIXED = 8 + WINDOW_FIXED;

    private WorkloadWindowsCodec() {}

    public static byte[] encode(WorkloadWindows state) {
        Binary.Writer out = new Binary.Writer(capacity(state));
        out.writeByte(VERSION);
        out.writeByte(state.phase().ordinal());
        out.writeBoolean(state.actionId() != null);
        if (state.actionId() != null) {
            out.writeUTF(state.actionId());
        }
        out.writeLong(state.phaseSinceMillis());
        out.writeLong(state.lastSampleMillis());
        out.writeLong(state.retryAtMillis());
        out.writeLong(state.noticedSinceMillis());
        out.writeLong(state.keepUntilMillis());
        out.writeLong(state.keepDay());
        out.writeInt(state.keepHoursOnDay());
        out.writeInt(state.devices().size());
        for (Map.Entry<String, DeviceState> e : state.devices().entrySet()) {
            out.writeUTF(e.getKey());
            writeDevice(out, e.getValue());
        }
        return out.toByteArray();
    }

    /** Exact for ASCII names, so the buffer is allocated once. */
    private static int capacity(WorkloadWindows state) {
        int bytes = 92 + (state.actionId() == null ? 0 : state.actionId().length());
        for (Map.Entry<String, DeviceState> e : state.devices().entrySet()) {
            DeviceState d = e.getValue();
            bytes += 6
                    + e.getKey().length()
                    + d.pod().length()
                    + d.group().length()
                    + DEVICE_FIXED
                    + 8 * d.window().bits().length;
        }
        return bytes;
    }

    public static WorkloadWindows decode(byte[] data) {
        Binary.Reader in = new Binary.Reader(data);
        byte version = in.readByte();
        if (version != VERSION && version != VERSION_2 && version != VERSION_1) {
            throw new IllegalArgumentException("unknown workload state version " + version);
        }
        WorkloadWindows.Phase phase = WorkloadWindows.Phase.values()[in.readByte()];
        String actionId = in.readBoolean() ? in.readUTF() : null;
        long phaseSince = in.readLong();
        long lastSample = in.readLong();
        long retryAt = in.readLong();
        long noticedSince = version == VERSION_1 ? IdlenessWindow.EMPTY : in.readLong();
        long keepUntil = version == VERSION ? in.readLong() : 0L;
        long keepDay = version == VERSION ? in.readLong() : 0L;
        int keepHours = version == VERSION ? in.readInt() : 0;
        int n = in.readInt();
        Map<String, DeviceState> devices = new LinkedHashMap<>(Math.max(4, n * 2));
        for (int i = 0; i < n; i++) {
            devices.put(in.readUTF(), readDevice(in));
        }
        WorkloadWindows state =
                new WorkloadWindows(devices, phase, actionId, phaseSince, lastSample, retryAt, noticedSince);
        state.restoreKeep(keepUntil, keepDay, keepHours);
        return state;
    }

    private static void writeDevice(Binary.Writer out, DeviceState d) {
        out.writeUTF(d.pod());
        out.writeUTF(d.group());
        out.writeLong(d.podStartMillis());
        out.writeBytes(windowBytes(d.window()));
    }

    /**
     * A sample changes one device of its workload, yet the whole workload is written: the other devices' windows
     * reuse the bytes they were last written with.
     */
    private static byte[] windowBytes(IdlenessWindow w) {
        byte[] cached = w.encoded();
        if (cached != null) {
            return cached;
        }
        long[] bits = w.bits();
        Binary.Writer out = new Binary.Writer(WINDOW_FIXED + 8 * bits.length);
        out.writeLong(w.slotMillis());
        out.writeInt(w.slots());
        out.writeLong(w.headSlot());
        out.writeLong(w.lastBadMillis());
        out.writeLong(w.runStartMillis());
        out.writeDouble(w.runMax());
        out.writeShort(bits.length);
        for (long word : bits) {
            out.writeLong(word);
        }
        byte[] bytes = out.toByteArray();
        w.encoded(bytes);
        return bytes;
    }

    private static DeviceState readDevice(Binary.Reader in) {
        String pod = in.readUTF();
        String group = in.readUTF();
        long podStart = in.readLong();
        long slotMillis = in.readLong();
        int slots = in.readInt();
        long head = in.readLong();
        long lastBad = in.readLong();
        long runStart = in.readLong();
        double runMax = in.readDouble();
        long[] bits = new long[in.readUnsignedShort()];
        for (int i = 0; i < bits.length; i++) {
            bits[i] = in.readLong();
        }
        return new DeviceState(
                new IdlenessWindow(slotMillis, slots, bits, head, lastBad, runStart, runMax), pod, group, podStart);
    }
}
