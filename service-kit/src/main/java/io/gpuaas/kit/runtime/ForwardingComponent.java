package io.gpuaas.kit.runtime;

import java.time.Duration;

/**
 * A service class that runs as one kit component: an informer cache with the service's lookups on top, or a
 * reconcile loop behind the service's own request method. It names that component, and the lifecycle, start order
 * and health are the component's.
 */
public interface ForwardingComponent extends ServiceComponent {

    /** The kit component this class runs as. */
    ServiceComponent component();

    @Override
    default String name() {
        return component().name();
    }

    @Override
    default int startOrder() {
        return component().startOrder();
    }

    @Override
    default void start() {
        component().start();
    }

    @Override
    default void stop(Duration grace) {
        component().stop(grace);
    }

    @Override
    default ComponentHealth health() {
        return component().health();
    }
}
