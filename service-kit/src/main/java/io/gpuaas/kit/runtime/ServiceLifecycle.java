package io.gpuaas.kit.runtime;

import io.micronaut.context.event.ApplicationEventListener;
import io.micronaut.context.event.StartupEvent;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts every {@link ServiceComponent} bean, and every component of each {@link ServiceComponents} group, once the application context has started, lowest
 * {@link ServiceComponent#startOrder()} first, and stops them in reverse order when the context stops, each with
 * {@code gpuaas.lifecycle.shutdown-grace} to finish in-flight work. A component that fails to start is logged and
 * stays out of readiness ({@link ComponentsReadiness}); the others still start.
 */
@Singleton
public class ServiceLifecycle implements ApplicationEventListener<StartupEvent> {

    private static final Logger LOG = LoggerFactory.getLogger(ServiceLifecycle.class);

    private final List<ServiceComponent> components;
    private final LifecycleSettings settings;
    private final List<ServiceComponent> started = new ArrayList<>();
    private boolean stopped;

    /** For code that runs without the container: these components only. */
    public ServiceLifecycle(List<ServiceComponent> components, LifecycleSettings settings) {
        this(components, List.of(), settings);
    }

    /**
     * The container's: every component bean and every component of every group, each once (a component that is both
     * a bean and in a group runs once), lowest start order first; equal orders keep beans, then groups, in order.
     */
    @Inject
    public ServiceLifecycle(
            List<ServiceComponent> components, List<ServiceComponents> groups, LifecycleSettings settings) {
        Set<ServiceComponent> all = Collections.newSetFromMap(new IdentityHashMap<>());
        List<ServiceComponent> ordered = new ArrayList<>();
        for (ServiceComponent component : components) {
            if (all.add(component)) {
                ordered.add(component);
            }
        }
        for (ServiceComponents group : groups) {
            for (ServiceComponent component : group.components()) {
                if (all.add(component)) {
                    ordered.add(component);
                }
            }
        }
        this.components = ordered.stream()
                .sorted(Comparator.comparingInt(ServiceComponent::startOrder))
                .toList();
        this.settings = settings;
    }

    /** Every component, in start order. */
    public List<ServiceComponent> components() {
        return components;
    }

    @Override
    public void onApplicationEvent(StartupEvent event) {
        start();
    }

    /** Starts every component not started yet, in start order. */
    public synchronized void start() {
        if (stopped) {
            return;
        }
        for (ServiceComponent component : components) {
            if (started.contains(component)) {
                continue;
            }
            try {
                component.start();
                started.add(component);
                LOG.info("started {}", component.name());
            } catch (RuntimeException e) {
                LOG.error("{} did not start; the service stays unready", component.name(), e);
            }
        }
    }

    /** Stops every started component, last started first. */
    @PreDestroy
    public synchronized void stop() {
        stopped = true;
        for (ServiceComponent component : started.reversed()) {
            try {
                component.stop(settings.shutdownGrace());
                LOG.info("stopped {}", component.name());
            } catch (RuntimeException e) {
                LOG.warn("{} did not stop cleanly", component.name(), e);
            }
        }
        started.clear();
    }
}
