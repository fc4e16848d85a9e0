package io.gpuaas.local.kueue;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Quantities as Kueue counts them: cpu in millicores, every other resource in whole base units (bytes for memory,
 * devices for extended resources), rounded up. Written back as quantities Kueue would accept ({@code 2500m},
 * {@code 8589934592}).
 */
final class ResourceUnits {

    static final String CPU = "cpu";

    private ResourceUnits() {}

    static long of(String resource, Quantity quantity) {
        BigDecimal amount = Quantity.getAmountInBytes(quantity);
        if (CPU.equals(resource)) {
            amount = amount.movePointRight(3);
        }
        return amount.setScale(0, RoundingMode.CEILING).longValueExact();
    }

    /** A Kueue int-or-string quantity; absent counts as 0. */
    static long of(String resource, IntOrString quantity) {
        if (quantity == null) {
            return 0;
        }
        return quantity.getIntVal() != null
                ? of(resource, new Quantity(Integer.toString(quantity.getIntVal())))
                : of(resource, new Quantity(quantity.getStrVal()));
    }

    static String format(String resource, long units) {
        if (CPU.equals(resource)) {
            return units % 1000 == 0 ? Long.toString(units / 1000) : units + "m";
        }
        return Long.toString(units);
    }
}
