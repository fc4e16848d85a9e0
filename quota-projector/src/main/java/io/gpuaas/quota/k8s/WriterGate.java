package io.gpuaas.quota.k8s;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether this replica may write to the API server now: open while it holds the Lease. The reconcile loops run on
 * every replica and pass each reconcile through here, so a follower's reconcile does nothing. Closing waits until
 * no reconcile is in flight any more: a replica that steps down has stopped writing before it lets the Lease go.
 */
public final class WriterGate {

    private static final Logger LOG = LoggerFactory.getLogger(WriterGate.class);

    private final ReentrantReadWriteLock inFlight = new ReentrantReadWriteLock();
    private volatile boolean open;

    /** Runs {@code work} if the gate is open; empty when it is closed (a follower, or stepping down). */
    public <T> Optional<T> ifOpen(Callable<T> work) throws Exception {
        if (!open || !inFlight.readLock().tryLock()) {
            return Optional.empty();
        }
        try {
            return open ? Optional.ofNullable(work.call()) : Optional.empty();
        } finally {
            inFlight.readLock().unlock();
        }
    }

    public boolean isOpen() {
        return open;
    }

    public void open() {
        open = true;
    }

    /** Closes the gate and waits up to {@code grace} for reconciles in flight; true when none is left. */
    public boolean close(Duration grace) {
        open = false;
        try {
            if (inFlight.writeLock().tryLock(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                inFlight.writeLock().unlock();
                return true;
            }
            LOG.warn("a write was still in flight {} after stepping down", grace);
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
