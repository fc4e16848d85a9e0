package io.gpuaas.quota.model;

import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;

/** Kubernetes quantity strings ("2", "500m", "16Gi") as numbers. */
public final class Quantities {

    private Quantities() {}

    public static BigDecimal parse(String quantity) {
        try {
            return new BigDecimal(quantity);
        } catch (NumberFormatException suffixed) {
            return Quantity.getAmountInBytes(new Quantity(quantity)).stripTrailingZeros();
        }
    }
}
