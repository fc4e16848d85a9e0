package io.gpuaas.metrics.kafka;

import io.gpuaas.kit.k8s.LeaderSchedule;
import io.gpuaas.metrics.StartOrder;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.apache.kafka.clients.producer.Producer;

/**
 * What the gateway's publishing leader duties (rollups, daily ledger) share: a service-kit {@link LeaderSchedule} that
 * starts with the rollups, says where it publishes or that another replica does, and closes its producer on stop.
 * The component is RUNNING from start to stop, leading or not: a publish that fails is logged and counted by the
 * schedule and retried by the next run, never a reason to leave traffic. Each publisher adds only its own task and
 * what it does on leading and stepping down.
 */
final class PublisherSchedule {

    private PublisherSchedule() {}

    /** @param leading the health detail while leading */
    static LeaderSchedule.Builder of(
            String name, String topic, String leading, Producer<?, ?> producer, PrometheusRegistry registry) {
        return LeaderSchedule.builder(name)
                .startOrder(StartOrder.ROLLUPS)
                .metrics(registry)
                .detail(() -> leading, () -> "standing by: another replica publishes to " + topic)
                .onStop(producer::close);
    }
}
