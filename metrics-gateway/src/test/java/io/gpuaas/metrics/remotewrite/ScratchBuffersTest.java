package io.gpuaas.metrics.remotewrite;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ScratchBuffersTest {

    @Test
    void shouldLendTheSameBufferAgainWhenItWasReturned() {
        ScratchBuffers buffers = new ScratchBuffers(2, 64);
        byte[] first = buffers.borrow();
        buffers.release(first);

        assertThat(buffers.borrow()).isSameAs(first).hasSize(64);
    }

    @Test
    void shouldKeepAtMostItsCapacityAndNoForeignBuffers() {
        ScratchBuffers buffers = new ScratchBuffers(1, 64);
        byte[] a = buffers.borrow();
        byte[] b = buffers.borrow();
        buffers.release(a);
        buffers.release(b); // over capacity: dropped
        buffers.release(new byte[128]); // a request's own larger buffer: never pooled

        assertThat(buffers.borrow()).isSameAs(a);
        assertThat(buffers.borrow()).isNotSameAs(b).isNotSameAs(a).hasSize(64);
    }
}
