package io.gpuaas.kit.k8s;

/**
 * Work only the holder of a Lease does (write Kueue quota, scrape exporters, publish rollups), started and stopped by
 * {@link LeaseLeadership}. Both calls come on one thread, in order, and alternate: {@code lead}, then
 * {@code stepDown}, then perhaps {@code lead} again after a new election.
 */
public interface LeaderDuty {

    /** Won the Lease: start the work. Should return soon (spawn threads for long work); renewals go on meanwhile. */
    void lead();

    /** Lost the Lease, or the service stops: once this returns none of the work runs any more. */
    void stepDown();
}
