package io.gpuaas.kit.runtime;

import io.gpuaas.kit.runtime.ComponentHealth.State;
import org.apache.kafka.streams.KafkaStreams;

/**
 * What a {@link StreamsApplication} knows about itself at one instant, and the health that follows from it (a pure
 * function, tested on its own).
 *
 * @param started        {@code start()} was called
 * @param stopped        {@code stop()} was called
 * @param deadBy         the JVM error that ended it, or null
 * @param waitingFor     the start condition it still waits for, or null
 * @param client         the current client's state, or null while there is none (before the first, between two)
 * @param reachedRunning the current client reached RUNNING once
 * @param failuresInRow  failures since a client last reached RUNNING
 * @param lastFailure    the newest failure, or null
 * @param restarts       clients replaced (or retried after failing to start) since start
 */
record StreamsStatus(
        String applicationId,
        boolean started,
        boolean stopped,
        String deadBy,
        String waitingFor,
        KafkaStreams.State client,
        boolean reachedRunning,
        int failuresInRow,
        String lastFailure,
        int restarts) {

    /**
     * Ready once the current client has reached RUNNING: a later rebalance of the same client keeps it ready (with
     * two replicas every rollout rebalances both), a failure takes it out until a new client is RUNNING.
     */
    ComponentHealth health() {
        String detail = "application " + applicationId + ": " + (client == null ? "no client" : client.name());
        if (stopped) {
            return new ComponentHealth(State.STOPPED, false, detail, restarts);
        }
        if (deadBy != null) {
            return new ComponentHealth(State.DEAD, false, detail + "; died: " + deadBy, restarts);
        }
        if (!started || waitingFor != null) {
            String why = waitingFor == null ? detail : detail + "; waiting for " + waitingFor;
            return new ComponentHealth(State.STARTING, false, why, restarts);
        }
        if (failuresInRow > 0) {
            String why = detail + "; " + failuresInRow + " failure(s) in a row, last: " + lastFailure;
            return new ComponentHealth(State.RECOVERING, false, why, restarts);
        }
        if (client == null || client == KafkaStreams.State.CREATED) {
            return new ComponentHealth(State.STARTING, false, detail, restarts);
        }
        if (client.isRunningOrRebalancing()) {
            return new ComponentHealth(State.RUNNING, reachedRunning, detail, restarts);
        }
        return new ComponentHealth(State.RECOVERING, false, detail, restarts);
    }
}
