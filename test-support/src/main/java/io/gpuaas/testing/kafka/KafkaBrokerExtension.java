package io.gpuaas.testing.kafka;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestInstancePostProcessor;

/**
 * Gives tests one real Kafka broker per test JVM. Register with
 * {@code @ExtendWith(KafkaBrokerExtension.class)}; then declare a {@link KafkaBroker} parameter
 * (constructor, lifecycle or test method) or a static/instance field of that type.
 *
 * <p>The broker is an {@link EmbeddedKafka} (in-process KRaft) with SASL and ACLs on; it is closed
 * when the JUnit run ends.
 *
 * <p>Tests share the broker: take topic names from {@link KafkaBroker#uniquePrefix()} and group
 * ids from {@link KafkaBroker#uniqueGroupId(String)}.
 */
public final class KafkaBrokerExtension implements BeforeAllCallback, TestInstancePostProcessor, ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(KafkaBrokerExtension.class);

    /**
     * The shared broker, started on first call. For code that needs the address before JUnit
     * calls back, such as a Micronaut {@code TestPropertyProvider}.
     */
    public static KafkaBroker sharedBroker() {
        return SharedKafka.get();
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        KafkaBroker broker = broker(context);
        injectFields(context.getRequiredTestClass(), null, broker);
    }

    @Override
    public void postProcessTestInstance(Object testInstance, ExtensionContext context) {
        injectFields(testInstance.getClass(), testInstance, broker(context));
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == KafkaBroker.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return broker(extensionContext);
    }

    private static KafkaBroker broker(ExtensionContext context) {
        // The root store closes its AutoCloseable values when the whole run ends.
        context.getRoot()
                .getStore(NAMESPACE)
                .getOrComputeIfAbsent(StopAtEnd.class, k -> new StopAtEnd(), StopAtEnd.class);
        return SharedKafka.get();
    }

    private static void injectFields(Class<?> type, Object instance, KafkaBroker broker) {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                boolean isStatic = Modifier.isStatic(field.getModifiers());
                if (field.getType() != KafkaBroker.class || isStatic == (instance != null)) {
                    continue;
                }
                if (Modifier.isFinal(field.getModifiers())) {
                    throw new ExtensionConfigurationException("KafkaBroker field must not be final: " + field);
                }
                try {
                    field.setAccessible(true);
                    field.set(instance, broker);
                } catch (IllegalAccessException e) {
                    throw new ExtensionConfigurationException("cannot inject KafkaBroker into " + field, e);
                }
            }
        }
    }

    /** Stored in the root context so the broker stops when the JUnit run is over. */
    private static final class StopAtEnd implements AutoCloseable {
        @Override
        public void close() {
            SharedKafka.close();
        }
    }
}
