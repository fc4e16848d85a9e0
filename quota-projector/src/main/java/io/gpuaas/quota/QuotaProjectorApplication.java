package io.gpuaas.quota;

import io.gpuaas.events.CloudEvents;
import io.micronaut.runtime.Micronaut;

/** The quota-projector service: bookings to Kueue quota, Kueue Workloads to Kafka, queue state to Kafka. */
public final class QuotaProjectorApplication {

    private QuotaProjectorApplication() {}

    public static void main(String[] args) {
        CloudEvents.setProcessSource("/gpuaas/quota-projector");
        Micronaut.run(QuotaProjectorApplication.class, args);
    }
}
