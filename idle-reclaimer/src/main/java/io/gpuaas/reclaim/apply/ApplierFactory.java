package io.gpuaas.reclaim.apply;

import io.gpuaas.events.KafkaAccess;
import io.gpuaas.events.reclaim.ReclaimIntent;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.kit.runtime.ReconcileLoop;
import io.gpuaas.kit.runtime.WorkConsumer;
import io.gpuaas.reclaim.config.ApplierSettings;
import io.gpuaas.reclaim.config.ReclaimerSettings;
import io.gpuaas.reclaim.k8s.PodOwnerIndex;
import io.gpuaas.reclaim.k8s.WorkerScaler;
import io.gpuaas.reclaim.metrics.ReclaimerMetrics;
import io.micronaut.context.annotation.Factory;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import jakarta.inject.Singleton;

/** The applier's components as beans: service-kit's {@code ServiceLifecycle} starts and stops them. */
@Factory
public class ApplierFactory {

    @Singleton
    IntentApplier intentApplier(
            KafkaClients clients,
            ReclaimerSettings settings,
            ApplierSettings applier,
            ScaleAction scaler,
            PodOwnerIndex owners,
            ReclaimerMetrics metrics,
            PrometheusRegistry registry) {
        IntentApplier.Options options = new IntentApplier.Options(
                settings.mode(),
                settings.dryRun(),
                applier.workers(),
                settings.maxActionsPerMinute(),
                settings.retryAfter());
        return IntentApplier.create(
                clients,
                settings.applicationId(),
                options,
                scaler,
                metrics,
                owners::synced,
                registry,
                clients.deadLetterPublisher(
                        KafkaAccess.consumerGroup(settings.applicationId(), KafkaAccess.RECLAIM_APPLIER), registry));
    }

    /**
     * The write side as a bean of its own: the applier needs only this of the scaler, and the fault IT puts a
     * failing one in its place.
     */
    @Singleton
    ScaleAction scaleAction(WorkerScaler scaler) {
        return scaler::reclaim;
    }

    @Singleton
    ReconcileLoop<WorkloadRef> applierLoop(IntentApplier applier) {
        return applier.loop();
    }

    @Singleton
    WorkConsumer<ReclaimIntent, PendingIntents.Sequenced> intentIntake(IntentApplier applier) {
        return applier.intake();
    }
}
