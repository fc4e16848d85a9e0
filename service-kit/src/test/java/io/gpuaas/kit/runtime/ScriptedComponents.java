package io.gpuaas.kit.runtime;

import io.gpuaas.kit.runtime.ComponentHealth.State;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Two components whose health a test sets by hand, and the journal of their starts and stops. */
@Factory
@Requires(property = ScriptedComponents.ENABLED, value = "true")
class ScriptedComponents {

    static final String ENABLED = "lifecycle-it.components";

    /** What the lifecycle did to the components, in order. */
    static final class Journal {
        final List<String> entries = new CopyOnWriteArrayList<>();
    }

    @Singleton
    Journal journal() {
        return new Journal();
    }

    /** Only in the group below: exposed as {@code Scripted}, not as a {@code ServiceComponent} bean of its own. */
    @Singleton
    @Named("writer")
    @Bean(typed = Scripted.class)
    Scripted writer(Journal journal) {
        return new Scripted("quota-writer", 10, journal);
    }

    /** A composition root's group: the writer, and the feed that is also a bean (the lifecycle runs it once). */
    @Singleton
    ServiceComponents group(@Named("writer") Scripted writer, @Named("feed") Scripted feed) {
        return () -> List.of(writer, feed);
    }

    @Singleton
    @Named("feed")
    Scripted feed(Journal journal) {
        return new Scripted("booking-feed", -10, journal);
    }

    /** A component whose health is whatever the test last set. */
    static final class Scripted implements ServiceComponent {
        private final String name;
        private final int order;
        private final Journal journal;
        private volatile ComponentHealth health = new ComponentHealth(State.STARTING, false, "not started", 0);

        Scripted(String name, int order, Journal journal) {
            this.name = name;
            this.order = order;
            this.journal = journal;
        }

        void health(State state, boolean caughtUp) {
            health = new ComponentHealth(state, caughtUp, "scripted " + state, 0);
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public int startOrder() {
            return order;
        }

        @Override
        public void start() {
            journal.entries.add("start " + name);
        }

        @Override
        public void stop(Duration grace) {
            journal.entries.add("stop " + name + " within " + grace);
        }

        @Override
        public ComponentHealth health() {
            return health;
        }
    }
}
