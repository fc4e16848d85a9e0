package io.gpuaas.quota.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.quota.config.LeaderElectionSettings;
import io.gpuaas.testing.k8s.KubernetesApi;
import io.gpuaas.testing.k8s.KubernetesApiExtension;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A leader whose duties take longer to start than the Lease lasts (the Workload ledger restore on a big topic) must
 * keep renewing meanwhile, or a second replica takes the Lease and both lead.
 */
@ExtendWith(KubernetesApiExtension.class)
class LeadershipSlowStartIT {

    private static final Duration LEASE = Duration.ofSeconds(2);
    private static final LeaderElectionSettings ELECTION = new LeaderElectionSettings(true, "slow-start", "default",
            LEASE, Duration.ofSeconds(1), Duration.ofMillis(200));

    @Test
    void shouldKeepRenewingTheLeaseWhenStartingTheDutiesTakesLongerThanTheLease(KubernetesApi api) throws Exception {
        CountDownLatch starting = new CountDownLatch(1);
        CountDownLatch finishStart = new CountDownLatch(1);
        AtomicBoolean secondLed = new AtomicBoolean();
        try (KubernetesClient clientA = api.newClient(); KubernetesClient clientB = api.newClient()) {
            Leadership first = new Leadership(clientA, ELECTION, "replica-a", () -> {
                starting.countDown();
                awaitQuietly(finishStart); // a start that outlasts the Lease several times
            }, () -> { }, () -> true, 0);
            first.start();
            assertThat(starting.await(10, TimeUnit.SECONDS)).as("replica-a leads").isTrue();
            Leadership second = new Leadership(clientB, ELECTION, "replica-b", () -> secondLed.set(true), () -> { },
                    () -> true, 0);
            second.start();
            try {
                List<ZonedDateTime> renewals = new ArrayList<>();
                long until = System.nanoTime() + LEASE.multipliedBy(3).toNanos();
                while (System.nanoTime() < until) {
                    Lease lease = api.client().leases().inNamespace("default").withName("slow-start").get();
                    assertThat(lease.getSpec().getHolderIdentity()).isEqualTo("replica-a");
                    renewals.add(lease.getSpec().getRenewTime());
                    Thread.sleep(250);
                }
                assertThat(secondLed).as("replica-b never led while replica-a was starting").isFalse();
                assertThat(renewals.stream().distinct().count()).as("renewals during the slow start")
                        .isGreaterThanOrEqualTo(3);
            } finally {
                finishStart.countDown();
                second.stop(Duration.ofSeconds(5));
                first.stop(Duration.ofSeconds(5));
            }
            // Once replica-a has gone (Lease released on close), replica-b takes over as before.
        }
    }

    @Test
    void shouldRunTheStepDownAfterAStartThatIsStillRunningWhenClosed(KubernetesApi api) throws Exception {
        CountDownLatch starting = new CountDownLatch(1);
        List<String> order = java.util.Collections.synchronizedList(new ArrayList<>());
        try (KubernetesClient client = api.newClient()) {
            Leadership leadership = new Leadership(client, ELECTION, "replica-c", () -> {
                starting.countDown();
                sleepQuietly(Duration.ofMillis(800));
                order.add("started");
            }, () -> order.add("stopped"), () -> true, 0);
            leadership.start();
            assertThat(starting.await(10, TimeUnit.SECONDS)).isTrue();
            leadership.stop(Duration.ofSeconds(5));
            // stop() returns only after both callbacks ran, in order: nothing writes after it.
            assertThat(order).containsExactly("started", "stopped");
        }
        // fabric8 releases by writing a one-second lease (and no holder, which the CRUD mock's patch keeps): any
        // replica may take it at once instead of waiting out the lease duration.
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(
                api.client().leases().inNamespace("default").withName("slow-start").get().getSpec()
                        .getLeaseDurationSeconds()).as("released on close").isEqualTo(1));
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void sleepQuietly(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
