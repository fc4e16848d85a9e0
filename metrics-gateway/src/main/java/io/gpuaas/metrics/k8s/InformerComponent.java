package io.gpuaas.metrics.k8s;

import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.gpuaas.kit.runtime.ComponentHealth;
import io.gpuaas.kit.runtime.ComponentHealth.State;
import io.gpuaas.kit.runtime.ServiceComponent;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A fabric8 informer run as a {@link ServiceComponent}: ready once its cache has synced and while it watches.
 * fabric8's default gives up on an error before the first sync and on most watch errors (the informer stops and its
 * cache goes stale in silence); here every error is retried by fabric8 itself (list again, watch again, with its
 * backoff), the component {@code RECOVERING} meanwhile. An informer that stopped anyway is {@code DEAD}: only a new
 * process brings a new one.
 */
abstract class InformerComponent<T> implements ServiceComponent, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(InformerComponent.class);

    private final String name;
    private final int startOrder;
    protected final SharedIndexInformer<T> informer;
    private volatile boolean started;
    private volatile boolean stopped;

    InformerComponent(String name, int startOrder, SharedIndexInformer<T> informer) {
        this.name = name;
        this.startOrder = startOrder;
        this.informer = informer;
        informer.exceptionHandler((isStarted, error) -> {
            LOG.warn("{}: watch failed ({}); listing and watching again", name, error.toString());
            return true;
        });
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int startOrder() {
        return startOrder;
    }

    @Override
    public void start() {
        started = true;
        informer.start();
    }

    @Override
    public void stop(Duration grace) {
        close();
    }

    @Override
    public void close() {
        stopped = true;
        informer.close();
    }

    @Override
    public ComponentHealth health() {
        if (stopped) {
            return new ComponentHealth(State.STOPPED, informer.hasSynced(), "stopped", 0);
        }
        if (!started) {
            return new ComponentHealth(State.STARTING, false, "not started", 0);
        }
        if (informer.stopped().toCompletableFuture().isDone()) {
            return new ComponentHealth(State.DEAD, informer.hasSynced(), "informer stopped for good", 0);
        }
        if (!informer.hasSynced()) {
            return new ComponentHealth(State.STARTING, false, "listing", 0);
        }
        if (!informer.isWatching()) {
            return new ComponentHealth(State.RECOVERING, true, "not watching; fabric8 lists and watches again", 0);
        }
        return new ComponentHealth(State.RUNNING, true, "watching", 0);
    }
}
