package io.gpuaas.metrics.remotewrite;

import java.util.concurrent.ArrayBlockingQueue;

/**
 * Decompression buffers lent to requests and taken back. A request of Prometheus' default 2,000 series decompresses
 * to a few hundred KiB, which the collector would otherwise take as a new humongous object on every request. Not a
 * ThreadLocal: requests run on virtual threads (Micronaut's blocking executor), each new, so a per-thread buffer
 * would be allocated per request. At most {@code capacity} buffers are kept; a request finding none gets a new one.
 */
final class ScratchBuffers {

    private final ArrayBlockingQueue<byte[]> idle;
    private final int size;

    ScratchBuffers(int capacity, int size) {
        this.idle = new ArrayBlockingQueue<>(capacity);
        this.size = size;
    }

    byte[] borrow() {
        byte[] buffer = idle.poll();
        return buffer != null ? buffer : new byte[size];
    }

    /** Takes {@code buffer} back if it is one of this pool's size and the pool has room; drops it otherwise. */
    void release(byte[] buffer) {
        if (buffer.length == size) {
            idle.offer(buffer);
        }
    }
}
