package io.gpuaas.events;

import com.fasterxml.jackson.databind.JsonNode;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The cheap check behind {@link SchemaValidation#REQUIRED_FIELDS}: the constraints a type's schema declares on its
 * top-level properties, read once from the schema and checked on the decoded record without building a JSON tree.
 * Required properties must not be null; numbers keep their {@code minimum}, {@code maximum},
 * {@code exclusiveMinimum} and {@code exclusiveMaximum}; strings (and enums) their {@code enum},
 * {@code minLength} and {@code maxLength}. Other keywords ({@link #UNDERSTOOD}) are left to the full schema, so a
 * type read with {@code REQUIRED_FIELDS} must not declare them on top-level properties (a test holds that).
 */
final class ComponentConstraints {

    /** Keywords of a top-level property this class checks, or that binding to the record already enforces. */
    static final Set<String> UNDERSTOOD = Set.of(
            "type",
            "format",
            "description",
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "enum",
            "minLength",
            "maxLength");

    /** One rule on one component's non-null value, and how the violation reads. */
    private record Rule(String text, Predicate<Object> holds) {}

    private record Component(Method accessor, String name, boolean required, List<Rule> rules) {}

    private static final ClassValue<List<Component>> COMPONENTS = new ClassValue<>() {
        @Override
        protected List<Component> computeValue(Class<?> type) {
            String ceType = EventTypes.typeOf(type);
            JsonNode properties = EventSchemas.document(ceType).path("properties");
            List<String> required = EventSchemas.required(ceType);
            List<Component> components = new ArrayList<>();
            for (RecordComponent component : type.getRecordComponents()) {
                String name = component.getName();
                boolean mustBePresent = !component.getType().isPrimitive() && required.contains(name);
                List<Rule> rules = rules(properties.path(name));
                if (mustBePresent || !rules.isEmpty()) {
                    components.add(new Component(component.getAccessor(), name, mustBePresent, rules));
                }
            }
            return List.copyOf(components);
        }
    };

    private ComponentConstraints() {}

    /** The first constraint {@code record} breaks, as {@code property: rule}, if any. */
    static Optional<String> firstViolation(Object record) {
        for (Component component : COMPONENTS.get(record.getClass())) {
            Object value = read(component.accessor(), record);
            if (value == null) {
                if (component.required()) {
                    return Optional.of("required property '" + component.name() + "' not found");
                }
                continue;
            }
            for (Rule rule : component.rules()) {
                if (!rule.holds().test(value)) {
                    return Optional.of(component.name() + ": " + value + " " + rule.text());
                }
            }
        }
        return Optional.empty();
    }

    private static Object read(Method accessor, Object record) {
        try {
            return accessor.invoke(record);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("cannot read " + accessor, e);
        }
    }

    private static List<Rule> rules(JsonNode property) {
        List<Rule> rules = new ArrayList<>();
        if (property.has("minimum")) {
            double min = property.get("minimum").asDouble();
            rules.add(new Rule("is below the minimum " + min, v -> number(v) >= min));
        }
        if (property.has("exclusiveMinimum")) {
            double min = property.get("exclusiveMinimum").asDouble();
            rules.add(new Rule("must be greater than " + min, v -> number(v) > min));
        }
        if (property.has("maximum")) {
            double max = property.get("maximum").asDouble();
            rules.add(new Rule("is above the maximum " + max, v -> number(v) <= max));
        }
        if (property.has("exclusiveMaximum")) {
            double max = property.get("exclusiveMaximum").asDouble();
            rules.add(new Rule("must be less than " + max, v -> number(v) < max));
        }
        if (property.has("enum")) {
            Set<String> allowed = new HashSet<>();
            property.get("enum").forEach(option -> {
                if (!option.isNull()) {
                    allowed.add(option.asText());
                }
            });
            rules.add(new Rule("is not one of " + allowed, v -> allowed.contains(text(v))));
        }
        if (property.has("minLength")) {
            int min = property.get("minLength").asInt();
            rules.add(new Rule("is shorter than " + min + " characters", v -> length(v) >= min));
        }
        if (property.has("maxLength")) {
            int max = property.get("maxLength").asInt();
            rules.add(new Rule("is longer than " + max + " characters", v -> length(v) <= max));
        }
        return List.copyOf(rules);
    }

    private static double number(Object value) {
        return ((Number) value).doubleValue();
    }

    private static String text(Object value) {
        return value instanceof Enum<?> e ? e.name() : value.toString();
    }

    /** JSON Schema counts characters as code points. */
    private static int length(Object value) {
        String s = text(value);
        return s.codePointCount(0, s.length());
    }
}
