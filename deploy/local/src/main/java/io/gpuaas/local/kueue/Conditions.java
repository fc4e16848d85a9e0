package io.gpuaas.local.kueue;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** metav1.Condition lists: set one condition, keeping lastTransitionTime unless its status flips. */
final class Conditions {

    private Conditions() {
    }

    /**
     * A copy of {@code conditions} with {@code type} set; returns the same list (by content) when nothing changed,
     * so callers can skip the write.
     */
    static List<Map<String, Object>> set(List<Map<String, Object>> conditions, String type, boolean status,
                                         String reason, String message, Long observedGeneration) {
        List<Map<String, Object>> result = new ArrayList<>();
        boolean found = false;
        String statusText = status ? "True" : "False";
        for (Map<String, Object> condition : conditions) {
            if (!type.equals(condition.get("type"))) {
                result.add(condition);
                continue;
            }
            found = true;
            boolean same = statusText.equals(condition.get("status")) && reason.equals(condition.get("reason"))
                    && message.equals(condition.get("message"));
            if (same) {
                result.add(condition);
            } else {
                Object since = statusText.equals(condition.get("status")) ? condition.get("lastTransitionTime") : now();
                result.add(condition(type, statusText, reason, message, since, observedGeneration));
            }
        }
        if (!found) {
            result.add(condition(type, statusText, reason, message, now(), observedGeneration));
        }
        return result;
    }

    static boolean isTrue(List<Map<String, Object>> conditions, String type) {
        return conditions.stream().anyMatch(c -> type.equals(c.get("type")) && "True".equals(c.get("status")));
    }

    private static Map<String, Object> condition(String type, String status, String reason, String message,
                                                 Object since, Long observedGeneration) {
        Map<String, Object> condition = new LinkedHashMap<>();
        condition.put("type", type);
        condition.put("status", status);
        condition.put("reason", reason);
        condition.put("message", message);
        condition.put("lastTransitionTime", Objects.toString(since));
        if (observedGeneration != null) {
            condition.put("observedGeneration", observedGeneration);
        }
        return condition;
    }

    private static String now() {
        return Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
