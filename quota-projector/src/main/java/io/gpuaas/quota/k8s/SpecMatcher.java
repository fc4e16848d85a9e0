package io.gpuaas.quota.k8s;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * Whether an object in the cluster already holds everything the projector wants, compared on the JSON of both (the
 * typed objects serialized: maps, lists, scalars), structurally and without naming any field. Only the fields the
 * projector sets are compared: Kueue's webhooks default others (e.g. {@code flavorFungibility}) and comparing those
 * would make the writer fight the defaulting forever. Lists must match element by element, so an extra flavor or
 * resource added by hand counts as drift and is restored.
 */
public final class SpecMatcher {

    private SpecMatcher() {}

    public static boolean covers(Object actual, Object desired) {
        if (desired == null || actual == null && isEmpty(desired)) {
            return true; // an empty list or object we render (a selector's matchExpressions) may come back absent
        }
        if (desired instanceof Map<?, ?> wanted) {
            return actual instanceof Map<?, ?> have
                    && wanted.entrySet().stream().allMatch(e -> covers(have.get(e.getKey()), e.getValue()));
        }
        if (desired instanceof List<?> wanted) {
            if (!(actual instanceof List<?> have) || have.size() != wanted.size()) {
                return false;
            }
            for (int i = 0; i < wanted.size(); i++) {
                if (!covers(have.get(i), wanted.get(i))) {
                    return false;
                }
            }
            return true;
        }
        return scalarEquals(actual, desired);
    }

    private static boolean isEmpty(Object value) {
        return value instanceof Map<?, ?> map && map.isEmpty() || value instanceof List<?> list && list.isEmpty();
    }

    private static boolean scalarEquals(Object actual, Object desired) {
        if (actual == null) {
            return false;
        }
        if (actual.equals(desired) || actual.toString().equals(desired.toString())) {
            return true;
        }
        // The API server may hand back a quantity as a number (8) where we wrote a string ("8").
        BigDecimal a = number(actual);
        BigDecimal d = number(desired);
        return a != null && d != null && a.compareTo(d) == 0;
    }

    private static BigDecimal number(Object value) {
        try {
            return new BigDecimal(value.toString());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
