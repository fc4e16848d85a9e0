package io.gpuaas.quota.k8s;

import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The reconciler's queue, as in client-go's workqueue: a key is queued at most once however often it is added,
 * and never handed to two workers at once; a key added while in flight is handed out again after {@link #done}.
 */
final class KeyedWorkQueue<K> {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final LinkedHashSet<K> pending = new LinkedHashSet<>();
    private final Set<K> inFlight = new HashSet<>();

    void add(K key) {
        lock.lock();
        try {
            if (pending.add(key)) {
                changed.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    /** The oldest key not in flight, waiting up to {@code timeoutMillis}; null on timeout. */
    K poll(long timeoutMillis) throws InterruptedException {
        long nanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        lock.lock();
        try {
            while (true) {
                for (Iterator<K> it = pending.iterator(); it.hasNext(); ) {
                    K key = it.next();
                    if (!inFlight.contains(key)) {
                        it.remove();
                        inFlight.add(key);
                        return key;
                    }
                }
                if (nanos <= 0) {
                    return null;
                }
                nanos = changed.awaitNanos(nanos);
            }
        } finally {
            lock.unlock();
        }
    }

    void done(K key) {
        lock.lock();
        try {
            inFlight.remove(key);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Whether nothing is queued or being worked on. */
    boolean idle() {
        lock.lock();
        try {
            return pending.isEmpty() && inFlight.isEmpty();
        } finally {
            lock.unlock();
        }
    }
}
