package io.gpuaas.reclaim.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The fast layout must be byte for byte what DataOutputStream wrote before it, or a changelog written by the
 * previous version would no longer restore.
 */
class BinaryTest {

    private static final List<String> STRINGS = List.of(
            "",
            "team-a/InferenceService/chat",
            "node-1/GPU-a/3",
            "caf\u00e9",
            "nul\u0000l",
            "\u20ac\uD83D\uDE00",
            "x".repeat(300));

    private static byte[] viaDataOutput(String s, long l, double d, int i, int sh) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(7);
            out.writeBoolean(true);
            out.writeUTF(s);
            out.writeLong(l);
            out.writeDouble(d);
            out.writeInt(i);
            out.writeShort(sh);
        }
        return bytes.toByteArray();
    }

    @Test
    void shouldWriteTheSameBytesAsDataOutputStreamAndReadThemBack() throws IOException {
        for (String s : STRINGS) {
            Binary.Writer out = new Binary.Writer(4);
            out.writeByte(7);
            out.writeBoolean(true);
            out.writeUTF(s);
            out.writeLong(Long.MIN_VALUE + 5);
            out.writeDouble(-0.125);
            out.writeInt(-3);
            out.writeShort(40_000);

            byte[] written = out.toByteArray();
            assertThat(written).isEqualTo(viaDataOutput(s, Long.MIN_VALUE + 5, -0.125, -3, 40_000));
            Binary.Reader in = new Binary.Reader(written);
            assertThat(in.readByte()).isEqualTo((byte) 7);
            assertThat(in.readBoolean()).isTrue();
            assertThat(in.readUTF()).isEqualTo(s);
            assertThat(in.readLong()).isEqualTo(Long.MIN_VALUE + 5);
            assertThat(in.readDouble()).isEqualTo(-0.125);
            assertThat(in.readInt()).isEqualTo(-3);
            assertThat(in.readUnsignedShort()).isEqualTo(40_000);
        }
    }

    @Test
    void shouldRejectATruncatedRecordInsteadOfReadingGarbage() {
        Binary.Writer out = new Binary.Writer(16);
        out.writeUTF("team-a/chat");
        byte[] truncated = java.util.Arrays.copyOf(out.toByteArray(), 5);

        assertThatThrownBy(() -> new Binary.Reader(truncated).readUTF()).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldDecodeStateWrittenByThePreviousStreamBasedCodec() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(1);
            out.writeByte(WorkloadWindows.Phase.RECLAIMED.ordinal());
            out.writeBoolean(true);
            out.writeUTF("team-a/InferenceService/chat@2026-11-22T15:00:00Z");
            out.writeLong(1_000L);
            out.writeLong(2_000L);
            out.writeLong(Long.MAX_VALUE);
            out.writeInt(1);
            out.writeUTF("node-1/GPU-a");
            out.writeUTF("chat-predictor-0");
            out.writeUTF("predictor");
            out.writeLong(500L);
            out.writeLong(1_000L);
            out.writeInt(10);
            out.writeLong(2L);
            out.writeLong(Long.MIN_VALUE);
            out.writeLong(0L);
            out.writeDouble(0.01);
            out.writeShort(1);
            out.writeLong(0b111L);
        }
        byte[] old = bytes.toByteArray();

        WorkloadWindows decoded = WorkloadWindowsCodec.decode(old);

        assertThat(decoded.phase()).isEqualTo(WorkloadWindows.Phase.RECLAIMED);
        assertThat(decoded.actionId()).isEqualTo("team-a/InferenceService/chat@2026-11-22T15:00:00Z");
        assertThat(decoded.devices().get("node-1/GPU-a").pod()).isEqualTo("chat-predictor-0");
        assertThat(decoded.devices()
                        .get("node-1/GPU-a")
                        .window()
                        .verdictAt(2_000, 0, 1)
                        .samples())
                .isEqualTo(3);
        assertThat(decoded.noticed())
                .as("layout 1 predates ReclaimPending: nothing was announced")
                .isFalse();
        byte[] current = WorkloadWindowsCodec.encode(decoded);
        assertThat(current[0]).as("written in the current layout").isEqualTo((byte) 3);
        assertThat(WorkloadWindowsCodec.encode(WorkloadWindowsCodec.decode(current)))
                .isEqualTo(current);
    }

    @Test
    void shouldKeepTheAnnouncedWindowWhenTheStateIsWrittenAndRead() {
        WorkloadWindows state = new WorkloadWindows();
        state.markNoticed(1_234L);

        WorkloadWindows decoded = WorkloadWindowsCodec.decode(WorkloadWindowsCodec.encode(state));

        assertThat(decoded.noticed()).isTrue();
        assertThat(decoded.noticedSinceMillis()).isEqualTo(1_234L);
    }

    @Test
    void shouldKeepAGrantedKeepWhenTheStateIsWrittenAndRead() {
        WorkloadWindows state = new WorkloadWindows();
        state.markNoticed(1_234L);
        state.markKept(20_420L, 16, 9_000_000L);

        WorkloadWindows decoded = WorkloadWindowsCodec.decode(WorkloadWindowsCodec.encode(state));

        assertThat(decoded.keepUntilMillis()).isEqualTo(9_000_000L);
        assertThat(decoded.keepDay()).isEqualTo(20_420L);
        assertThat(decoded.keepHoursOnDay()).isEqualTo(16);
        assertThat(decoded.noticedSinceMillis()).isEqualTo(1_234L);
        assertThat(WorkloadWindowsCodec.encode(decoded)).isEqualTo(WorkloadWindowsCodec.encode(state));
    }

    @Test
    void shouldReadALayout2StateAsNeverKeptWhenItWasWrittenBeforeKeeps() {
        WorkloadWindows state = new WorkloadWindows();
        state.markNoticed(1_234L);
        byte[] current = WorkloadWindowsCodec.encode(state);
        // Layout 2 is layout 3 without the keep's 20 bytes after the noticed window's start (byte 0 the version).
        int keepAt = current.length - 4 - 20;
        byte[] layout2 = new byte[current.length - 20];
        System.arraycopy(current, 0, layout2, 0, keepAt);
        System.arraycopy(current, keepAt + 20, layout2, keepAt, 4);
        layout2[0] = 2;

        WorkloadWindows decoded = WorkloadWindowsCodec.decode(layout2);

        assertThat(decoded.noticedSinceMillis()).isEqualTo(1_234L);
        assertThat(decoded.keepUntilMillis()).isZero();
        assertThat(decoded.keepHoursOnDay()).isZero();
        assertThat(decoded.keptAt(0L)).isFalse();
    }
}
