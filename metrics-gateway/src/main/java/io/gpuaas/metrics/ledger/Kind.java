package io.gpuaas.metrics.ledger;

import java.util.Locale;

/** The ledger's figures, in the order of its columns. */
public enum Kind {
    BOOKED,
    ADMITTED,
    BUSY,
    IDLE,
    RECLAIMED,
    RELEASED;

    /** The name in labels and columns, e.g. {@code booked}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
