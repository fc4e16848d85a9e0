package io.gpuaas.reclaim.model;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Compact binary form of {@link WorkloadWindows} for the state store and its changelog. Written on every sample,
 * so it is a plain length-prefixed layout rather than JSON; the leading version byte lets a later layout coexist.
 */
public final class WorkloadWindowsCodec {

    private static final byte VERSION = 1;

    private WorkloadWindowsCodec() {
    }

    public static byte[] encode(WorkloadWindows state) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + state.devices().size() * 160);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            out.writeByte(state.phase().ordinal());
            writeNullable(out, state.actionId());
            out.writeLong(state.phaseSinceMillis());
            out.writeLong(state.lastSampleMillis());
            out.writeLong(state.retryAtMillis());
            out.writeInt(state.devices().size());
            for (Map.Entry<String, DeviceState> e : state.devices().entrySet()) {
                out.writeUTF(e.getKey());
                writeDevice(out, e.getValue());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    public static WorkloadWindows decode(byte[] data) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
            byte version = in.readByte();
            if (version != VERSION) {
                throw new IllegalArgumentException("unknown workload state version " + version);
            }
            WorkloadWindows.Phase phase = WorkloadWindows.Phase.values()[in.readByte()];
            String actionId = readNullable(in);
            long phaseSince = in.readLong();
            long lastSample = in.readLong();
            long retryAt = in.readLong();
            int n = in.readInt();
            Map<String, DeviceState> devices = new LinkedHashMap<>(Math.max(4, n * 2));
            for (int i = 0; i < n; i++) {
                devices.put(in.readUTF(), readDevice(in));
            }
            return new WorkloadWindows(devices, phase, actionId, phaseSince, lastSample, retryAt);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void writeDevice(DataOutputStream out, DeviceState d) throws IOException {
        out.writeUTF(d.pod());
        out.writeUTF(d.group());
        out.writeLong(d.podStartMillis());
        IdlenessWindow w = d.window();
        out.writeLong(w.slotMillis());
        out.writeInt(w.slots());
        out.writeLong(w.headSlot());
        out.writeLong(w.lastBadMillis());
        out.writeLong(w.runStartMillis());
        out.writeDouble(w.runMax());
        long[] bits = w.bits();
        out.writeShort(bits.length);
        for (long word : bits) {
            out.writeLong(word);
        }
    }

    private static DeviceState readDevice(DataInputStream in) throws IOException {
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
        return new DeviceState(new IdlenessWindow(slotMillis, slots, bits, head, lastBad, runStart, runMax),
                pod, group, podStart);
    }

    private static void writeNullable(DataOutputStream out, String value) throws IOException {
        out.writeBoolean(value != null);
        if (value != null) {
            out.writeUTF(value);
        }
    }

    private static String readNullable(DataInputStream in) throws IOException {
        return in.readBoolean() ? in.readUTF() : null;
    }
}
