package io.gpuaas.events;

/**
 * The {@code gpuaas.io/} label and annotation keys that more than one part of gpuaas reads or writes on Kubernetes
 * objects. A key that one service alone reads and writes stays in that service (idle-reclaimer's opt-out and resume
 * annotations, quota-projector's booking notices and drain mark).
 */
public final class Labels {

    /** Namespace label naming the tenant that owns the namespace; quota-projector's queues carry and select it. */
    public static final String TENANT = "gpuaas.io/tenant";

    /** Node label naming the flexible pool a node belongs to; the pool's ResourceFlavor selects it. */
    public static final String POOL = "gpuaas.io/pool";

    /** Node annotation: the JSON per-GPU MIG layout quota-projector asked for, which a MIG manager follows. */
    public static final String MIG_LAYOUT = "gpuaas.io/mig-layout";

    private Labels() {}
}
