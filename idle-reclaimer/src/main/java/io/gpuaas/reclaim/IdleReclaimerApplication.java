package io.gpuaas.reclaim;

import io.gpuaas.events.CloudEvents;
import io.micronaut.runtime.Micronaut;

/** The idle-reclaimer service: idle Ray and KServe GPU workers to zero, and back on resume. */
public final class IdleReclaimerApplication {

    private IdleReclaimerApplication() {}

    public static void main(String[] args) {
        CloudEvents.setProcessSource("/gpuaas/idle-reclaimer");
        Micronaut.run(IdleReclaimerApplication.class, args);
    }
}
