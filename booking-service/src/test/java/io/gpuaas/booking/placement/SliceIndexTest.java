package io.gpuaas.booking.placement;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What {@link SliceIndex} knows: held slices in the buckets wholly inside a window, exactly undone, or nothing. */
class SliceIndexTest {

    private static final long W = SliceIndex.BUCKET_MILLIS;

    @Test
    void shouldShowSlicesHeldInBucketsWhollyInsideTheWindowOnly() {
        SliceIndex index = new SliceIndex(2, 8);
        index.add(1, 0b0011, 2 * W + 5, 3 * W + 5);

        long[] inside = index.heldInside(2 * W, 4 * W);
        assertThat(SliceIndex.free(inside[1], 0b0001)).isFalse();
        assertThat(SliceIndex.free(inside[1], 0b0100)).isTrue();
        assertThat(inside[0]).isZero();
        // A window holding no whole bucket knows nothing.
        assertThat(index.heldInside(2 * W + 1, 3 * W + 1)).isNull();
        // Buckets only partly inside are not read: [W, 2W + 10) holds bucket 1 wholly, not bucket 2.
        assertThat(index.heldInside(W, 2 * W + 10)[1]).isZero();
    }

    @Test
    void shouldForgetAUnitShortenedAndExtendedOffTheBucketsOnceItIsTakenOff() {
        SliceIndex index = new SliceIndex(1, 8);
        index.add(0, 0b1, 0, 4 * W);
        index.moveEnd(0, 0b1, 0, 4 * W, 2 * W + 7);
        assertThat(SliceIndex.free(index.heldInside(3 * W, 4 * W)[0], 0b1)).isTrue();
        assertThat(SliceIndex.free(index.heldInside(2 * W, 3 * W)[0], 0b1)).isFalse();
        index.moveEnd(0, 0b1, 0, 2 * W + 7, 5 * W + 1);
        assertThat(SliceIndex.free(index.heldInside(5 * W, 6 * W)[0], 0b1)).isFalse();
        index.remove(0, 0b1, 0, 5 * W + 1);

        assertThat(index.heldInside(0, 10 * W)[0]).isZero();
    }

    @Test
    void shouldTurnItselfOffRatherThanOverflowACounter() {
        SliceIndex index = new SliceIndex(1, 8);
        for (int i = 0; i < 255; i++) {
            index.add(0, 0b1, i, i + 1);
        }
        assertThat(index.on()).isTrue();
        index.add(0, 0b1, 300, 301);

        assertThat(index.on()).isFalse();
        assertThat(index.heldInside(0, 10 * W)).isNull();
    }

    @Test
    void shouldStayOffForGpusWithMoreThanEightMemorySlices() {
        SliceIndex index = new SliceIndex(1, 16);
        index.add(0, 0b1, 0, 4 * W);

        assertThat(index.heldInside(0, 4 * W)).isNull();
    }
}
