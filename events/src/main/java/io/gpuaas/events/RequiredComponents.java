package io.gpuaas.events;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The cheap check behind {@link SchemaValidation#REQUIRED_FIELDS}: which required top-level record components
 * (per the schema) are null after decoding. Primitive components cannot be missing once decoded, so they are skipped.
 */
final class RequiredComponents {

    private static final ClassValue<List<Method>> ACCESSORS = new ClassValue<>() {
        @Override
        protected List<Method> computeValue(Class<?> type) {
            List<String> required = EventSchemas.required(EventTypes.typeOf(type));
            List<Method> accessors = new ArrayList<>();
            for (RecordComponent component : type.getRecordComponents()) {
                if (!component.getType().isPrimitive() && required.contains(component.getName())) {
                    accessors.add(component.getAccessor());
                }
            }
            return List.copyOf(accessors);
        }
    };

    private RequiredComponents() {
    }

    /** The name of the first required component that is null, if any. */
    static Optional<String> firstMissing(Object record) {
        for (Method accessor : ACCESSORS.get(record.getClass())) {
            try {
                if (accessor.invoke(record) == null) {
                    return Optional.of(accessor.getName());
                }
            } catch (IllegalAccessException | InvocationTargetException e) {
                throw new IllegalStateException("cannot read " + accessor, e);
            }
        }
        return Optional.empty();
    }
}
