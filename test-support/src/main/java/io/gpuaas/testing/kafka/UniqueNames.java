package io.gpuaas.testing.kafka;

import java.util.concurrent.atomic.AtomicInteger;

/** JVM-wide counter behind {@link KafkaBroker#uniquePrefix()} and {@link KafkaBroker#uniqueGroupId(String)}. */
final class UniqueNames {
    static final AtomicInteger COUNTER = new AtomicInteger();

    private UniqueNames() {}
}
