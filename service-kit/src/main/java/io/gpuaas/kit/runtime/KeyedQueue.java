package io.gpuaas.kit.runtime;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntConsumer;
import java.util.function.LongSupplier;

/**
 * The reconcile loop's queue, as client-go's rate-limited workqueue: a key is pending at most once however often it
 * is added; a key is never handed to two workers at once, and one added while in flight is handed out again after
 * {@link #done}. Delayed keys ({@link #addAfter}) become pending when due; adding a key now cancels its delay, and a
 * delay never postpones a key that is already pending or due sooner.
 */
final class KeyedQueue<K> {

    private record Timer<K>(long dueNanos, K key) {}

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final LinkedHashSet<K> pending = new LinkedHashSet<>();
    private final Set<K> inFlight = new HashSet<>();
    private final Map<K, Long> delayed = new HashMap<>();
    private final PriorityQueue<Timer<K>> timers = new PriorityQueue<>((a, b) -> Long.compare(a.dueNanos, b.dueNanos));
    private final LongSupplier nanoTime;
    private final IntConsumer depthListener;

    KeyedQueue(IntConsumer depthListener) {
        this(System::nanoTime, depthListener);
    }

    KeyedQueue(LongSupplier nanoTime, IntConsumer depthListener) {
        this.nanoTime = nanoTime;
        this.depthListener = depthListener;
    }

    /** Makes {@code key} pending now (once, however often it is added). */
    void add(K key) {
        lock.lock();
        try {
            delayed.remove(key);
            if (pending.add(key)) {
                changed.signalAll();
                depthListener.accept(pending.size());
            }
        } finally {
            lock.unlock();
        }
    }

    /** Makes {@code key} pending after {@code delay}, unless it is pending already or due sooner. */
    void addAfter(K key, Duration delay) {
        if (delay.isZero() || delay.isNegative()) {
            add(key);
            return;
        }
        lock.lock();
        try {
            if (pending.contains(key)) {
                return;
            }
            long due = nanoTime.getAsLong() + delay.toNanos();
            Long current = delayed.get(key);
            if (current == null || due - current < 0) {
                delayed.put(key, due);
                timers.add(new Timer<>(due, key));
                changed.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * The oldest pending key not in flight, now marked in flight; waits up to {@code timeout}.
     *
     * @return the key, or null when none became available in time
     */
    K take(Duration timeout) throws InterruptedException {
        lock.lockInterruptibly();
        try {
            long deadline = nanoTime.getAsLong() + timeout.toNanos();
            while (true) {
                long now = nanoTime.getAsLong();
                promoteDue(now);
                K key = firstIdle();
                if (key != null) {
                    return key;
                }
                long wait = deadline - now;
                Timer<K> next = timers.peek();
                if (next != null) {
                    wait = Math.min(wait, next.dueNanos - now);
                }
                if (deadline - now <= 0) {
                    return null;
                }
                changed.awaitNanos(Math.max(wait, 1));
            }
        } finally {
            lock.unlock();
        }
    }

    /** Releases {@code key} after its reconcile; if it was added meanwhile, it is handed out again. */
    void done(K key) {
        lock.lock();
        try {
            inFlight.remove(key);
            if (pending.contains(key)) {
                changed.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Wakes every waiting {@link #take} (stop). */
    void wakeAll() {
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Keys pending now (not delayed, not in flight). */
    int depth() {
        lock.lock();
        try {
            return pending.size();
        } finally {
            lock.unlock();
        }
    }

    /** Keys in flight now. */
    int inFlight() {
        lock.lock();
        try {
            return inFlight.size();
        } finally {
            lock.unlock();
        }
    }

    /** Keys waiting for a retry or requeue delay. */
    int delayed() {
        lock.lock();
        try {
            return delayed.size();
        } finally {
            lock.unlock();
        }
    }

    /** Nothing pending, delayed or in flight. */
    boolean idle() {
        lock.lock();
        try {
            return pending.isEmpty() && delayed.isEmpty() && inFlight.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    private void promoteDue(long now) {
        boolean promoted = false;
        while (!timers.isEmpty() && timers.peek().dueNanos - now <= 0) {
            Timer<K> timer = timers.poll();
            // A timer is stale when the key was added since, or re-delayed to another time.
            Long due = delayed.get(timer.key);
            if (due != null && due == timer.dueNanos) {
                delayed.remove(timer.key);
                promoted |= pending.add(timer.key);
            }
        }
        if (promoted) {
            depthListener.accept(pending.size());
        }
    }

    private K firstIdle() {
        for (Iterator<K> it = pending.iterator(); it.hasNext(); ) {
            K key = it.next();
            if (!inFlight.contains(key)) {
                it.remove();
                inFlight.add(key);
                depthListener.accept(pending.size());
                return key;
            }
        }
        return null;
    }
}
