package io.gpuaas.metrics.remotewrite;

import static io.gpuaas.metrics.remotewrite.WriteRequests.message;
import static io.gpuaas.metrics.remotewrite.WriteRequests.series;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.WireFormat;
import io.gpuaas.metrics.remotewrite.RemoteWriteRejection.Reason;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WriteRequestReaderTest {

    /** What the reader handed over, copied out of the reused {@link Series}. */
    private record Read(List<String> labels, List<Double> values, List<Long> timestamps) {}

    private static List<Read> read(byte[] request) {
        List<Read> out = new ArrayList<>();
        WriteRequestReader.read(request, request.length, s -> {
            List<String> labels = new ArrayList<>();
            for (int i = 0; i < s.labelCount(); i++) {
                labels.add(s.name(i) + "=" + s.value(i));
            }
            List<Double> values = new ArrayList<>();
            List<Long> timestamps = new ArrayList<>();
            for (int k = 0; k < s.sampleCount(); k++) {
                values.add(s.sampleValue(k));
                timestamps.add(s.sampleTimestamp(k));
            }
            out.add(new Read(labels, values, timestamps));
        });
        return out;
    }

    @Test
    void shouldReadEveryLabelAndSampleWhenTheRequestIsEncodedByProtobuf() {
        byte[] request = WriteRequests.encode(List.of(
                series("DCGM_FI_DEV_GPU_UTIL", Map.of("UUID", "GPU-1", "Hostname", "dcgm-exporter-wwwjh"), 42, 1_700),
                new WriteRequests.TimeSeries(
                        List.of(new WriteRequests.Label("__name__", "up"), new WriteRequests.Label("job", "dcgm")),
                        List.of(
                                new WriteRequests.Sample(1, 1_000),
                                new WriteRequests.Sample(Double.NaN, 2_000),
                                new WriteRequests.Sample(-0.5, -5)))));

        List<Read> read = read(request);

        assertThat(read).hasSize(2);
        assertThat(read.get(0).labels())
                .containsExactly("Hostname=dcgm-exporter-wwwjh", "UUID=GPU-1", "__name__=DCGM_FI_DEV_GPU_UTIL");
        assertThat(read.get(0).values()).containsExactly(42.0);
        assertThat(read.get(0).timestamps()).containsExactly(1_700L);
        assertThat(read.get(1).labels()).containsExactly("__name__=up", "job=dcgm");
        assertThat(read.get(1).values()).containsExactly(1.0, Double.NaN, -0.5);
        assertThat(read.get(1).timestamps()).containsExactly(1_000L, 2_000L, -5L);
    }

    @Test
    void shouldSkipMetadataExemplarsHistogramsAndUnknownFieldsWhenTheSenderAddsThem() {
        byte[] label = message(l -> {
            l.writeString(1, "__name__");
            l.writeUInt64(7, 99); // unknown varint inside a Label
            l.writeString(2, "DCGM_FI_DEV_FB_USED");
        });
        byte[] sample = message(s -> {
            s.writeFixed32(9, 7); // unknown fixed32 inside a Sample
            s.writeDouble(1, 1234.5);
            s.writeInt64(2, 5_000);
            s.writeFixed64(10, 1); // unknown fixed64
        });
        byte[] timeSeries = message(t -> {
            t.writeByteArray(1, label);
            t.writeByteArray(3, message(e -> e.writeDouble(2, 1))); // an exemplar
            t.writeByteArray(2, sample);
            t.writeByteArray(4, message(h -> h.writeUInt64(1, 3))); // a native histogram
            t.writeInt32(1, 5); // a known field number with the wrong wire type is skipped like an unknown one
            t.writeTag(12, WireFormat.WIRETYPE_START_GROUP); // a (proto2) group with a nested group
            t.writeUInt64(1, 1);
            t.writeTag(13, WireFormat.WIRETYPE_START_GROUP);
            t.writeTag(13, WireFormat.WIRETYPE_END_GROUP);
            t.writeTag(12, WireFormat.WIRETYPE_END_GROUP);
        });
        byte[] request = message(w -> {
            w.writeByteArray(3, message(m -> m.writeString(2, "DCGM_FI_DEV_FB_USED"))); // metadata
            w.writeByteArray(1, timeSeries);
            w.writeString(1000, "from a later version");
        });

        List<Read> read = read(request);

        assertThat(read).singleElement().satisfies(r -> {
            assertThat(r.labels()).containsExactly("__name__=DCGM_FI_DEV_FB_USED");
            assertThat(r.values()).containsExactly(1234.5);
            assertThat(r.timestamps()).containsExactly(5_000L);
        });
    }

    @Test
    void shouldRejectOrReadWholeSeriesOnlyWhenTheRequestIsCutAnywhere() {
        byte[] request = WriteRequests.encode(List.of(
                series("DCGM_FI_DEV_GPU_UTIL", Map.of("UUID", "GPU-1", "node", "n1"), 42, 1_700),
                series("DCGM_FI_DEV_GPU_TEMP", Map.of("UUID", "GPU-1", "node", "n1"), 1024, 1_700)));
        int firstSeriesEnd = request.length / 2; // both series encode to the same length
        for (int cut = 0; cut < request.length; cut++) {
            byte[] prefix = Arrays.copyOf(request, cut);
            if (cut == 0 || cut == firstSeriesEnd) {
                // A cut between two series is a shorter valid request: protobuf has no end marker.
                assertThat(read(prefix)).hasSize(cut == 0 ? 0 : 1);
            } else {
                assertThatThrownBy(() -> read(prefix))
                        .as("cut at %d of %d", cut, request.length)
                        .isInstanceOfSatisfying(RemoteWriteRejection.class, e -> assertThat(e.reason())
                                .isEqualTo(Reason.MALFORMED_PROTOBUF));
            }
        }
    }

    @Test
    void shouldRejectWithoutAllocatingWhenALengthPointsFarPastTheEnd() {
        // timeseries field announcing 2^31 - 1 bytes, followed by 3 bytes
        byte[] request = {0x0A, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x07, 1, 2, 3};

        assertThatThrownBy(() -> read(request))
                .isInstanceOf(RemoteWriteRejection.class)
                .hasMessageContaining("past the end");
    }

    @Test
    void shouldRejectWhenAVarintNeverEndsOrAWireTypeIsInvalid() {
        byte[] endless = {
            0x0A,
            (byte) 0x80,
            (byte) 0x80,
            (byte) 0x80,
            (byte) 0x80,
            (byte) 0x80,
            (byte) 0x80,
            (byte) 0x80,
            (byte) 0x80,
            (byte) 0x80,
            (byte) 0x80,
            0x01
        };
        byte[] wireType7 = {0x0F, 0x00};
        byte[] fieldZero = {0x02, 0x00};
        byte[] strayEndGroup = {0x0C};

        for (byte[] request : List.of(endless, wireType7, fieldZero, strayEndGroup)) {
            assertThatThrownBy(() -> read(request))
                    .isInstanceOfSatisfying(RemoteWriteRejection.class, e -> assertThat(e.reason())
                            .isEqualTo(Reason.MALFORMED_PROTOBUF));
        }
    }

    @Test
    void shouldReadNothingWhenTheRequestIsEmpty() {
        assertThat(read(new byte[0])).isEmpty();
    }
}
