package io.gpuaas.quota.k8s;

import static io.gpuaas.quota.model.Bookings.at;
import static io.gpuaas.quota.model.Bookings.booking;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.quota.model.QuotaPlan;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PlanRendererTest {

    private static final PoolCatalog POOLS = PoolCatalog.load(Optional.empty());
    private static final ObjectRef COHORT = new ObjectRef(Kind.COHORT, null, "gpuaas-pool");

    private final PlanRenderer renderer =
            new PlanRenderer(new KueueManifests(new ManifestSettings("gpuaas-pool", "gpuaas", true, true)));

    private PlanRenderer.Rendered render(List<Booking> bookings) {
        return renderer.render(QuotaPlan.at(at(1), bookings, POOLS, Map.of()));
    }

    @Test
    void shouldReportOnlyTheTenantWhoseQuotaChangedAndTheCohortWhenABookingChanges() {
        Booking alpha = booking("b1", "alpha", "h200", 3, at(0), at(60));
        Booking bravo = booking("b2", "bravo", "h200", 1, at(0), at(60));
        assertThat(render(List.of(alpha, bravo)).changed()).hasSize(7);

        assertThat(render(List.of(alpha, bravo)).changed())
                .as("the same plan again")
                .isEmpty();
        assertThat(render(List.of(booking("b1", "alpha", "h200", 4, at(0), at(60)), bravo))
                        .changed())
                .containsExactlyInAnyOrder(
                        COHORT,
                        new ObjectRef(Kind.CLUSTER_QUEUE, null, "gpuaas-alpha"),
                        new ObjectRef(Kind.LOCAL_QUEUE, "alpha", "gpuaas"),
                        new ObjectRef(Kind.HARDWARE_PROFILE, "alpha", "gpuaas-h200"));
    }

    @Test
    void shouldReportAnEndedTenantsObjectsWhenItsLastBookingEnds() {
        Booking alpha = booking("b1", "alpha", "h200", 3, at(0), at(60));
        render(List.of(alpha));

        PlanRenderer.Rendered ended = render(List.of());

        assertThat(ended.changed())
                .containsExactlyInAnyOrder(
                        COHORT,
                        new ObjectRef(Kind.CLUSTER_QUEUE, null, "gpuaas-alpha"),
                        new ObjectRef(Kind.LOCAL_QUEUE, "alpha", "gpuaas"),
                        new ObjectRef(Kind.HARDWARE_PROFILE, "alpha", "gpuaas-h200"));
        assertThat(ended.desired().keySet()).containsExactly(COHORT);
    }

    @Test
    void shouldChangeOnlyTheClusterQueueAndTheCohortAtTheStartWhenTheQueuesWereCreatedAhead() {
        PlanRenderer.Rendered ahead = renderer.render(QuotaPlan.at(
                at(0).minusSeconds(30),
                List.of(booking("b1", "alpha", "h200", 3, at(0), at(60))),
                POOLS,
                Map.of(),
                Map.of(),
                Duration.ofMinutes(2)));
        assertThat(ahead.desired().keySet())
                .as("before the window: where to submit, no quota")
                .containsExactlyInAnyOrder(
                        COHORT,
                        new ObjectRef(Kind.LOCAL_QUEUE, "alpha", "gpuaas"),
                        new ObjectRef(Kind.HARDWARE_PROFILE, "alpha", "gpuaas-h200"));

        PlanRenderer.Rendered started = renderer.render(QuotaPlan.at(
                at(0),
                List.of(booking("b1", "alpha", "h200", 3, at(0), at(60))),
                POOLS,
                Map.of(),
                Map.of(),
                Duration.ofMinutes(2)));

        assertThat(started.changed())
                .containsExactlyInAnyOrder(COHORT, new ObjectRef(Kind.CLUSTER_QUEUE, null, "gpuaas-alpha"));
        assertThat(started.desired()).hasSize(4);
    }
}
