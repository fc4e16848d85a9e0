package io.gpuaas.kit.runtime;

/**
 * What a {@link ServiceComponent} reports to the health endpoints.
 *
 * @param state    where its life cycle stands
 * @param caughtUp whether it has read what existed when it started (always true for components without input)
 * @param detail   one human line: what it follows, what failed last; never a secret
 * @param restarts how often it replaced a failed consumer or worker since start
 */
public record ComponentHealth(State state, boolean caughtUp, String detail, int restarts) {

    /** Life cycle of a component. */
    public enum State {
        /** Started, not yet working (first assignment, first poll). */
        STARTING,
        /** Working normally. */
        RUNNING,
        /** Something failed and the component is retrying by itself; it is not serving fresh state meanwhile. */
        RECOVERING,
        /** It can no longer work (a JVM error ended it); only a restart of the process helps. */
        DEAD,
        /** Stopped on purpose. */
        STOPPED
    }

    /** Ready for traffic: running and caught up. */
    public boolean ready() {
        return state == State.RUNNING && caughtUp;
    }

    /** Alive: anything but dead (recovering components recover by themselves; restarting the pod would not help). */
    public boolean alive() {
        return state != State.DEAD;
    }
}
