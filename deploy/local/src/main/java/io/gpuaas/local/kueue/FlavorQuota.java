package io.gpuaas.local.kueue;

/**
 * Quota of one (flavor, resource) in a ClusterQueue or Cohort.
 *
 * @param flavor         ResourceFlavor name
 * @param resource       resource name
 * @param nominal        nominalQuota
 * @param borrowingLimit how much more than nominal the queue may borrow, null for unlimited
 * @param lendingLimit   how much of nominal others may borrow, null for all of it
 */
public record FlavorQuota(String flavor, String resource, long nominal, Long borrowingLimit, Long lendingLimit) {

    /** The part of nominal quota only this queue may use. */
    long guaranteed() {
        return lendingLimit == null ? 0 : Math.max(0, nominal - lendingLimit);
    }

    /** The part of nominal quota this queue puts into the cohort's shared pool. */
    long lendable() {
        return lendingLimit == null ? nominal : Math.min(nominal, lendingLimit);
    }
}
