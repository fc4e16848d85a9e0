package io.gpuaas.local.services;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One JVM of a service, as one pod of its Deployment. Replicas run the same code, configuration and Kafka login;
 * they differ only in their port and their name. What must not run twice (quota-projector's writes, metrics-gateway's
 * scrapes and rollups) is decided among them by a Lease, not by configuration.
 *
 * @param spec   the service
 * @param number 1, 2, …
 */
public record ServiceReplica(ServiceSpec spec, int number) {

    /** How far apart the ports of two replicas of one service are: 8080, 8090, … for booking-service. */
    public static final int PORT_STRIDE = 10;
    /** With the stride of 10 and four services, more replicas would take the next service's ports. */
    public static final int MAX_REPLICAS = 9;

    public ServiceReplica {
        if (number < 1 || number > MAX_REPLICAS) {
            throw new IllegalArgumentException("replica number must be 1.." + MAX_REPLICAS + ", got " + number);
        }
    }

    /** Every replica of every given service, replica 1 of each service first (they start in that order). */
    public static List<ServiceReplica> of(List<ServiceSpec> specs, int replicas) {
        List<ServiceReplica> out = new ArrayList<>();
        for (int n = 1; n <= replicas; n++) {
            for (ServiceSpec spec : specs) {
                out.add(new ServiceReplica(spec, n));
            }
        }
        return out;
    }

    /** {@code booking-service} for the first replica (as with one replica), {@code booking-service-2} for the next. */
    public String name() {
        return number == 1 ? spec.name() : spec.name() + "-" + number;
    }

    /** The port of this replica when the service's first replica listens on {@code firstPort}. */
    public int port(int firstPort) {
        return firstPort + (number - 1) * PORT_STRIDE;
    }

    /** A pod's HOSTNAME is its name; the Lease identity starts with it, so the holder is readable. */
    public Map<String, String> environment() {
        return Map.of("HOSTNAME", name());
    }

    @Override
    public String toString() {
        return name();
    }
}
