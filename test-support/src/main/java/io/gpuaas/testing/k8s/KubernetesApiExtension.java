package io.gpuaas.testing.k8s;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestInstancePostProcessor;

/**
 * Gives each top-level test class its own in-memory Kubernetes API ({@link KubernetesApi}) with
 * the gpuaas CRDs registered. Register with {@code @ExtendWith(KubernetesApiExtension.class)} and
 * declare a {@link KubernetesApi} or {@link KubernetesClient} parameter or (static/instance)
 * field. Objects persist across the methods of one class (and its {@code @Nested} classes); the
 * server stops after the class.
 */
public final class KubernetesApiExtension implements BeforeAllCallback, TestInstancePostProcessor, ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(KubernetesApiExtension.class);

    @Override
    public void beforeAll(ExtensionContext context) {
        injectFields(context.getRequiredTestClass(), null, api(context));
    }

    @Override
    public void postProcessTestInstance(Object testInstance, ExtensionContext context) {
        injectFields(testInstance.getClass(), testInstance, api(context));
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        Class<?> type = parameterContext.getParameter().getType();
        return type == KubernetesApi.class || type == KubernetesClient.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        KubernetesApi api = api(extensionContext);
        return parameterContext.getParameter().getType() == KubernetesApi.class ? api : api.client();
    }

    /** The API of the top-level test class, started on first use and closed with that class. */
    private static KubernetesApi api(ExtensionContext context) {
        ExtensionContext classContext = context;
        while (classContext.getParent().isPresent() && classContext.getParent().get() != context.getRoot()) {
            classContext = classContext.getParent().get();
        }
        return classContext
                .getStore(NAMESPACE)
                .getOrComputeIfAbsent(KubernetesApi.class, k -> KubernetesApi.start(), KubernetesApi.class);
    }

    private static void injectFields(Class<?> type, Object instance, KubernetesApi api) {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                boolean isStatic = Modifier.isStatic(field.getModifiers());
                Object value = field.getType() == KubernetesApi.class
                        ? api
                        : field.getType() == KubernetesClient.class ? api.client() : null;
                if (value == null || isStatic == (instance != null)) {
                    continue;
                }
                if (Modifier.isFinal(field.getModifiers())) {
                    throw new ExtensionConfigurationException("field must not be final: " + field);
                }
                try {
                    field.setAccessible(true);
                    field.set(instance, value);
                } catch (IllegalAccessException e) {
                    throw new ExtensionConfigurationException("cannot inject into " + field, e);
                }
            }
        }
    }
}
