package io.gpuaas.kit.runtime;

import java.util.List;

/**
 * A service's composition root: the one place that builds its long-running parts and wires them, read as
 * "components → topics in → pure decision → loops out". A service registers one bean of this type (a class that
 * builds its object graph in its constructor); {@link ServiceLifecycle} starts its {@link #components()} with every
 * other {@link ServiceComponent} bean, by start order, and the health indicators report them one by one.
 */
public interface ServiceComponents {

    /** Every component of the group, each built once; the lifecycle sorts them by {@code startOrder()}. */
    List<ServiceComponent> components();
}
