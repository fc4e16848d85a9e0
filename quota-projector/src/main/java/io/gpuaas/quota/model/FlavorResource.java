package io.gpuaas.quota.model;

/** One quota cell of Kueue: a ResourceFlavor and a resource name it covers, e.g. {@code h200 / nvidia.com/gpu}. */
public record FlavorResource(String flavor, String resource) implements Comparable<FlavorResource> {

    @Override
    public int compareTo(FlavorResource other) {
        int byFlavor = flavor.compareTo(other.flavor);
        return byFlavor != 0 ? byFlavor : resource.compareTo(other.resource);
    }
}
