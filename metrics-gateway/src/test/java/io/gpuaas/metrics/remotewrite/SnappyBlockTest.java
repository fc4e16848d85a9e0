package io.gpuaas.metrics.remotewrite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuaas.metrics.remotewrite.RemoteWriteRejection.Reason;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class SnappyBlockTest {

    private static final byte[] TEXT = "DCGM_FI_DEV_GPU_UTIL DCGM_FI_DEV_GPU_UTIL DCGM_FI_DEV_GPU_UTIL"
            .repeat(20)
            .getBytes(StandardCharsets.US_ASCII);

    @Test
    void shouldReturnTheOriginalBytesWhenTheBodyIsASnappyBlock() {
        byte[] body = WriteRequests.snappy(TEXT);

        assertThat(SnappyBlock.decompress(body, body.length, 1 << 20)).isEqualTo(TEXT);
        assertThat(body.length).isLessThan(TEXT.length);
    }

    @Test
    void shouldDecompressIntoTheScratchBufferOnlyWhenItIsLargeEnough() {
        byte[] body = WriteRequests.snappy(TEXT);
        byte[] large = new byte[TEXT.length + 100];
        byte[] small = new byte[TEXT.length - 1];

        SnappyBlock.Block reused = SnappyBlock.decompress(body, body.length, 1 << 20, large);
        SnappyBlock.Block fresh = SnappyBlock.decompress(body, body.length, 1 << 20, small);

        assertThat(reused.bytes()).isSameAs(large);
        assertThat(Arrays.copyOf(reused.bytes(), reused.length())).isEqualTo(TEXT);
        assertThat(fresh.bytes()).isNotSameAs(small).isEqualTo(TEXT);
        assertThat(fresh.length()).isEqualTo(TEXT.length);
    }

    @Test
    void shouldAnswerTooLargeBeforeAllocatingWhenTheHeaderDeclaresMoreThanTheBound() {
        // A 6-byte body whose header declares 2 GiB - 1: refused from the header alone.
        byte[] bomb = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x07, 0x00};

        assertThatThrownBy(() -> SnappyBlock.decompress(bomb, bomb.length, 1 << 20))
                .isInstanceOfSatisfying(
                        RemoteWriteRejection.class, e -> assertThat(e.reason()).isEqualTo(Reason.BODY_TOO_LARGE))
                .hasMessageContaining("2147483647");
        byte[] body = WriteRequests.snappy(TEXT);
        assertThatThrownBy(() -> SnappyBlock.decompress(body, body.length, TEXT.length - 1))
                .isInstanceOfSatisfying(
                        RemoteWriteRejection.class, e -> assertThat(e.reason()).isEqualTo(Reason.BODY_TOO_LARGE));
        assertThatThrownBy(() -> SnappyBlock.decompress(body, body.length, body.length - 1))
                .isInstanceOfSatisfying(
                        RemoteWriteRejection.class, e -> assertThat(e.reason()).isEqualTo(Reason.BODY_TOO_LARGE));
    }

    @Test
    void shouldAnswerNotSnappyWhenTheBodyIsPlainTruncatedOrFramed() {
        byte[] body = WriteRequests.snappy(TEXT);
        byte[] truncated = Arrays.copyOf(body, body.length - 3);
        byte[] plain = "up 1\n".getBytes(StandardCharsets.US_ASCII);
        // snappy's framed format (what Netty decodes for "Content-Encoding: snappy") starts with its stream id chunk.
        byte[] framed = {(byte) 0xFF, 0x06, 0x00, 0x00, 's', 'N', 'a', 'P', 'p', 'Y'};
        byte[] empty = {};
        byte[] zeroWithTrailer = {0x00, 0x01};

        for (byte[] bad : new byte[][] {truncated, plain, framed, empty, zeroWithTrailer}) {
            assertThatThrownBy(() -> SnappyBlock.decompress(bad, bad.length, 1 << 20))
                    .as(Arrays.toString(bad))
                    .isInstanceOfSatisfying(RemoteWriteRejection.class, e -> assertThat(e.reason())
                            .isEqualTo(Reason.NOT_SNAPPY));
        }
    }

    @Test
    void shouldReturnNothingWhenTheBlockIsEmpty() {
        byte[] body = WriteRequests.snappy(new byte[0]);

        assertThat(SnappyBlock.decompress(body, body.length, 16)).isEmpty();
    }
}
