package io.gpuaas.kit.runtime;

import java.time.Duration;

/**
 * How a {@link TopicReplica} retries and watches its consumer.
 *
 * @param backoff             between consumers after a failure, and between attempts of a failing handler
 * @param handlerAttempts     calls of the handler for one record before it is dead-lettered
 * @param metadataTimeout     for partition lookups, offset lookups and probes
 * @param probeInterval       how often the end offsets are asked for, to notice a broker that went away
 * @param discoveryInterval   how often a topic that does not exist yet is looked for
 * @param rediscoveryInterval how often existing topics are looked at for new partitions
 */
record ReplicaSettings(
        Backoff backoff,
        int handlerAttempts,
        Duration metadataTimeout,
        Duration probeInterval,
        Duration discoveryInterval,
        Duration rediscoveryInterval) {

    static ReplicaSettings defaults() {
        return new ReplicaSettings(
                new Backoff(Duration.ofMillis(500), Duration.ofSeconds(30)),
                5,
                Duration.ofSeconds(10),
                Duration.ofSeconds(5),
                Duration.ofSeconds(2),
                Duration.ofMinutes(1));
    }

    ReplicaSettings withBackoff(Backoff value) {
        return new ReplicaSettings(
                value, handlerAttempts, metadataTimeout, probeInterval, discoveryInterval, rediscoveryInterval);
    }

    ReplicaSettings withHandlerAttempts(int value) {
        if (value < 1) {
            throw new IllegalArgumentException("handler attempts must be at least 1, got " + value);
        }
        return new ReplicaSettings(
                backoff, value, metadataTimeout, probeInterval, discoveryInterval, rediscoveryInterval);
    }

    ReplicaSettings withProbe(Duration metadata, Duration probe) {
        return new ReplicaSettings(backoff, handlerAttempts, metadata, probe, discoveryInterval, rediscoveryInterval);
    }
}
