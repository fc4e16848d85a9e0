package io.gpuaas.local.kueue;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/** metav1.Condition lists: set one condition, keeping lastTransitionTime unless its status flips. */
final class Conditions {

    private Conditions() {}

    /** The conditions of a status that may be absent or have none. */
    static List<Condition> of(List<Condition> conditions) {
        return conditions == null ? List.of() : conditions;
    }

    /**
     * A copy of {@code conditions} with {@code type} set; returns the same list (by content) when nothing changed,
     * so callers can skip the write.
     */
    static List<Condition> set(
            List<Condition> conditions,
            String type,
            boolean status,
            String reason,
            String message,
            Long observedGeneration) {
        List<Condition> result = new ArrayList<>();
        boolean found = false;
        String statusText = status ? "True" : "False";
        for (Condition condition : conditions) {
            if (!type.equals(condition.getType())) {
                result.add(condition);
                continue;
            }
            found = true;
            boolean same = statusText.equals(condition.getStatus())
                    && reason.equals(condition.getReason())
                    && message.equals(condition.getMessage());
            if (same) {
                result.add(condition);
            } else {
                String since = statusText.equals(condition.getStatus()) ? condition.getLastTransitionTime() : now();
                result.add(condition(type, statusText, reason, message, since, observedGeneration));
            }
        }
        if (!found) {
            result.add(condition(type, statusText, reason, message, now(), observedGeneration));
        }
        return result;
    }

    static boolean isTrue(List<Condition> conditions, String type) {
        return conditions.stream().anyMatch(c -> type.equals(c.getType()) && "True".equals(c.getStatus()));
    }

    private static Condition condition(
            String type, String status, String reason, String message, String since, Long observedGeneration) {
        return new ConditionBuilder()
                .withType(type)
                .withStatus(status)
                .withReason(reason)
                .withMessage(message)
                .withLastTransitionTime(String.valueOf(since))
                .withObservedGeneration(observedGeneration)
                .build();
    }

    private static String now() {
        return Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
