package io.gpuaas.metrics.ledger;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.BookingEvent.BookingReleased;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.events.workload.WorkloadEvent;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Input records of the ledger as their producers write them, for the fold's tests and the ITs. */
public final class LedgerRecords {

    /** The shipped catalog's pools: whole H200s and H200 MIG slices weighing 1/7, 1/3 and 1/2 of a GPU. */
    public static final PoolCatalog POOLS = PoolCatalog.load(java.util.Optional.empty());

    private LedgerRecords() {}

    public static Pool pool(String id) {
        return POOLS.find(id).orElseThrow();
    }

    /** A booking of {@code tenant} (namespace of the same name) as booking-service confirms it. */
    public static Booking booking(String id, String tenant, String pool, int quantity, Instant start, Instant end) {
        Pool p = pool(pool);
        return new Booking(
                id,
                tenant,
                tenant,
                p.id(),
                p.flavor(),
                p.resource(),
                quantity,
                start,
                end,
                null,
                BookingState.CONFIRMED,
                "user-" + tenant,
                start,
                start,
                1);
    }

    public static BookingEvent confirmed(Booking booking) {
        return new BookingEvent.BookingConfirmed("req-" + booking.id(), booking, booking.createdAt());
    }

    public static BookingEvent activated(Booking booking) {
        return new BookingEvent.BookingActivated(
                booking.withState(BookingState.ACTIVE, booking.start()), booking.start());
    }

    public static BookingEvent released(Booking booking, BookingReleased.Reason reason, Instant at) {
        Booking active = booking.withState(BookingState.ACTIVE, booking.start());
        return new BookingReleased("rel-" + booking.id(), active.withState(BookingState.RELEASED, at), reason, at, at);
    }

    public static BookingEvent completed(Booking booking) {
        Booking active = booking.withState(BookingState.ACTIVE, booking.start());
        return new BookingEvent.BookingCompleted(
                active.withState(BookingState.COMPLETED, booking.end()), booking.end());
    }

    /** A Workload of {@code namespace} admitted with {@code units} of {@code pool}'s resource on its flavor. */
    public static WorkloadEvent admitted(String namespace, String name, String pool, int units, Instant at) {
        return workload(namespace, name, pool, units, at, true, false);
    }

    /** The same Workload finished. */
    public static WorkloadEvent finished(String namespace, String name, String pool, int units, Instant at) {
        return workload(namespace, name, pool, units, at, true, true);
    }

    private static WorkloadEvent workload(
            String namespace, String name, String pool, int units, Instant at, boolean admitted, boolean finished) {
        Pool p = pool(pool);
        WorkloadEvent.Condition admittedCondition =
                new WorkloadEvent.Condition("Admitted", admitted ? "True" : "False", "Admitted", null, at);
        List<WorkloadEvent.Condition> conditions = finished
                ? List.of(admittedCondition, new WorkloadEvent.Condition("Finished", "True", "Succeeded", null, at))
                : List.of(admittedCondition);
        return new WorkloadEvent.WorkloadObserved(
                namespace,
                name,
                "uid-" + name,
                "1",
                "gpuaas",
                "gpuaas-" + namespace,
                null,
                null,
                true,
                conditions.getLast(),
                conditions,
                List.of(new WorkloadEvent.PodSet("main", 1, Map.of(p.resource(), Integer.toString(units)))),
                List.of(new WorkloadEvent.PodSetAdmission(
                        "main",
                        1,
                        Map.of(p.resource(), p.flavor(), "cpu", "default"),
                        Map.of(p.resource(), Integer.toString(units), "cpu", "500m"))),
                null,
                at);
    }

    public static ReclaimEvent reclaimed(String namespace, String name, int gpus, Instant at) {
        WorkloadRef ref = new WorkloadRef(namespace, "RayCluster", name);
        return new ReclaimEvent.Reclaimed(
                ref,
                namespace,
                List.of(new ReclaimEvent.ScaledGroup("workers", gpus, null, 0)),
                gpus,
                900,
                "RayCluster worker groups to 0",
                false,
                at);
    }

    public static ReclaimEvent resumed(String namespace, String name, Instant at) {
        WorkloadRef ref = new WorkloadRef(namespace, "RayCluster", name);
        return new ReclaimEvent.Resumed(
                ref, namespace, List.of(new ReclaimEvent.ScaledGroup("workers", 0, null, 1)), "alice", at);
    }

    /** A scrape of {@code node} with one device of {@code pool} held by a pod of {@code namespace}. */
    public static GpuScrape scrape(
            String node, String uuid, String pool, String namespace, Instant at, double utilization) {
        Pool p = pool(pool);
        return new GpuScrape(
                at,
                node,
                "10.0.0.1:9400",
                List.of(new GpuScrape.Device(
                        uuid,
                        0,
                        p.gpuModel(),
                        p.migProfile() == null ? null : "1",
                        p.migProfile(),
                        "dcgm-exporter-test",
                        namespace,
                        "worker-" + uuid,
                        "main",
                        utilization,
                        "GR_ENGINE_ACTIVE",
                        100.0,
                        100.0,
                        300.0)));
    }
}
