package io.gpuaas.kit.runtime;

import io.gpuaas.kit.runtime.ComponentHealth.State;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A {@link TopicReplica}'s state as its health shows it, and the stop signal its waits listen to. */
final class ReplicaStatus implements ReplicaSession.Host {

    private static final Logger LOG = LoggerFactory.getLogger(ReplicaStatus.class);

    private final String name;
    private final CountDownLatch stopping = new CountDownLatch(1);
    private volatile boolean running = true;
    private volatile State state = State.STARTING;
    private volatile String detail = "not started";
    private volatile int restarts;
    private volatile int failuresInRow;

    ReplicaStatus(String name) {
        this.name = name;
    }

    @Override
    public boolean running() {
        return running;
    }

    void stop() {
        running = false;
        stopping.countDown();
    }

    @Override
    public boolean pause(Duration pause) {
        try {
            return !stopping.await(pause.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stop();
            return false;
        }
    }

    @Override
    public void status(State newState, String newDetail) {
        if (newState != state) {
            LOG.info("{}: {} ({})", name, newState, newDetail);
        }
        detail = newDetail;
        state = newState;
    }

    @Override
    public void healthy() {
        failuresInRow = 0;
    }

    /** Counts a failed consumer; the number of failures since the broker last answered a probe. */
    int failed() {
        restarts++;
        return ++failuresInRow;
    }

    State state() {
        return state;
    }

    ComponentHealth health(boolean caughtUp) {
        return new ComponentHealth(state, caughtUp, detail, restarts);
    }
}
