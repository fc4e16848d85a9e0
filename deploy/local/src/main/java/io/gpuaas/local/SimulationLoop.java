package io.gpuaas.local;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.kube.kserve.v1beta1.InferenceService;
import io.gpuaas.kube.ray.v1.RayCluster;
import io.gpuaas.local.fleet.DeviceAllocator;
import io.gpuaas.local.kueue.KueueStandIn;
import io.gpuaas.local.mig.MigManagerStandIn;
import io.gpuaas.local.model.OwnerReader;
import io.gpuaas.local.model.WorkloadOwner;
import io.gpuaas.local.operator.OperatorStandIn;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives the stand-ins from one thread, in the order a cluster settles: Kueue admits, the operators create or delete
 * pods, the scheduler binds them to devices, and the MIG manager (when there is a flexible pool) reconfigures the
 * flexible nodes, seeing the devices just bound. One thread means the stand-ins never race each other; a failed pass
 * is logged (once per distinct message) and the next pass starts from what the API server holds.
 */
final class SimulationLoop implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SimulationLoop.class);

    private final KubernetesClient client;
    private final KueueStandIn kueue;
    private final OperatorStandIn operator;
    private final DeviceAllocator allocator;
    private final Optional<MigManagerStandIn> migManager;
    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "simulation");
        thread.setDaemon(true);
        return thread;
    });
    private String lastError;
    private volatile boolean closing;

    SimulationLoop(KubernetesClient client, DeviceAllocator allocator) {
        this(client, allocator, KueueStandIn.SHIPPED_EXCLUDED_RESOURCE_PREFIXES);
    }

    /** {@code excludedResourcePrefixes}: the stand-in's {@code resources.excludeResourcePrefixes}. */
    SimulationLoop(KubernetesClient client, DeviceAllocator allocator, List<String> excludedResourcePrefixes) {
        this(client, allocator, excludedResourcePrefixes, Optional.empty());
    }

    /** {@code migManager}: the MIG manager stand-in of the flexible nodes, if the fleet has any. */
    SimulationLoop(
            KubernetesClient client,
            DeviceAllocator allocator,
            List<String> excludedResourcePrefixes,
            Optional<MigManagerStandIn> migManager) {
        this.client = client;
        this.kueue = new KueueStandIn(client, excludedResourcePrefixes);
        this.operator = new OperatorStandIn(client);
        this.allocator = allocator;
        this.migManager = migManager;
    }

    void start(Duration period) {
        executor.scheduleWithFixedDelay(this::safePass, 0, period.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** One full pass; public to the package so tests can step the simulation deterministically. */
    void pass() {
        List<WorkloadOwner> owners = owners();
        Set<String> admitted = kueue.reconcile(owners);
        operator.reconcile(owners, admitted);
        allocator.reconcile(owners);
        migManager.ifPresent(MigManagerStandIn::reconcile);
    }

    private void safePass() {
        try {
            pass();
            lastError = null;
        } catch (RuntimeException e) {
            if (closing) {
                return;
            }
            String message = String.valueOf(e.getMessage());
            if (!Objects.equals(message, lastError)) {
                LOG.warn("simulation pass failed, retrying: {}", message, e);
            }
            lastError = message;
        }
    }

    private List<WorkloadOwner> owners() {
        List<WorkloadOwner> owners = new ArrayList<>();
        client.resources(RayCluster.class)
                .inAnyNamespace()
                .list()
                .getItems()
                .forEach(r -> owners.add(OwnerReader.rayCluster(r)));
        client.resources(InferenceService.class)
                .inAnyNamespace()
                .list()
                .getItems()
                .forEach(r -> owners.add(OwnerReader.inferenceService(r)));
        return owners;
    }

    @Override
    public void close() {
        closing = true;
        executor.shutdown();
        try {
            // Let a running pass finish: interrupting it mid-request leaves a half-written change for nobody.
            if (!executor.awaitTermination(5, TimeUnit.SECONDS)) {
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
