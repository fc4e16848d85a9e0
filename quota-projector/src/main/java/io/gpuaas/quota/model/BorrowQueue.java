package io.gpuaas.quota.model;

import java.util.SortedSet;

/**
 * What a tenant over its month's budget gets on the pools that allow it: a ClusterQueue that holds no quota and may
 * only borrow idle capacity of the cohort, and a LocalQueue in each of its namespaces.
 *
 * @param tenant       the tenant id
 * @param clusterQueue {@code gpuaas-<tenant>.borrowed} ({@link BorrowPlan#clusterQueueName})
 * @param namespaces   where its LocalQueues go: the namespaces labelled with the tenant and those its known bookings
 *                     name
 */
public record BorrowQueue(String tenant, String clusterQueue, SortedSet<String> namespaces) {}
