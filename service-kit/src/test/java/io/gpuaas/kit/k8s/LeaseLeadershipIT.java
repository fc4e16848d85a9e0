package io.gpuaas.kit.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.kit.runtime.ComponentHealth.State;
import io.gpuaas.testing.k8s.KubernetesApi;
import io.gpuaas.testing.k8s.KubernetesApiExtension;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Two replicas campaigning for one Lease on the in-memory API server: one runs the duties at a time. */
@ExtendWith(KubernetesApiExtension.class)
class LeaseLeadershipIT {

    private static final Duration LEASE = Duration.ofSeconds(2);

    private static LeaseSettings election(String lease, String identity) {
        return new LeaseSettings(
                true, lease, "default", identity, LEASE, Duration.ofSeconds(1), Duration.ofMillis(200));
    }

    /** A duty that records its calls in one shared log, as "replica:lead" and "replica:stop". */
    record Recorded(String replica, List<String> log) implements LeaderDuty {
        @Override
        public void lead() {
            log.add(replica + ":lead");
        }

        @Override
        public void stepDown() {
            log.add(replica + ":stop");
        }
    }

    @Test
    void shouldRunTheDutiesOnOneReplicaAndMoveThemWhenTheLeaderStops(KubernetesApi api) throws Exception {
        List<String> log = Collections.synchronizedList(new ArrayList<>());
        try (KubernetesClient clientA = api.newClient();
                KubernetesClient clientB = api.newClient()) {
            LeaseLeadership a = new LeaseLeadership(
                    clientA,
                    "test-leadership",
                    election("duties", "replica-a"),
                    List.of(new Recorded("a1", log), new Recorded("a2", log)),
                    () -> true,
                    0);
            a.start();
            await().atMost(Duration.ofSeconds(10)).until(a::leading);
            LeaseLeadership b = new LeaseLeadership(
                    clientB,
                    "test-leadership",
                    election("duties", "replica-b"),
                    List.of(new Recorded("b1", log)),
                    () -> true,
                    0);
            b.start();
            await().atMost(Duration.ofSeconds(5))
                    .until(() -> b.health().detail().equals("replica-b follows replica-a"));
            assertThat(b.health().ready()).as("a follower is ready to serve").isTrue();
            assertThat(b.leading()).isFalse();

            a.stop(Duration.ofSeconds(5));
            // Released on stop: replica-b takes over well within one lease duration of waiting.
            await().atMost(LEASE.plusSeconds(3)).until(b::leading);
            b.stop(Duration.ofSeconds(5));

            assertThat(log).containsExactly("a1:lead", "a2:lead", "a2:stop", "a1:stop", "b1:lead", "b1:stop");
            assertThat(a.health().state()).isEqualTo(State.STOPPED);
        }
    }

    @Test
    void shouldCampaignOnlyOnceReadyAndLeadAtOnceWhenTheElectionIsDisabled() {
        List<String> log = Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean ready = new AtomicBoolean();
        LeaseSettings off =
                new LeaseSettings(false, "unused", null, "solo", LEASE, Duration.ofSeconds(1), Duration.ofMillis(200));
        LeaseLeadership solo =
                new LeaseLeadership(null, "solo-leadership", off, List.of(new Recorded("s", log)), ready::get, 0);
        solo.start();
        assertThat(solo.health().state()).isEqualTo(State.STARTING);
        assertThat(solo.leading()).isFalse();

        ready.set(true);
        await().atMost(Duration.ofSeconds(5)).until(solo::leading);
        assertThat(solo.health().ready()).isTrue();
        solo.stop(Duration.ofSeconds(1));
        assertThat(log).containsExactly("s:lead", "s:stop");
    }

    @Test
    void shouldRefuseDurationsThatCouldGiveTwoLeadersWhenBuilt() {
        LeaseSettings bad = new LeaseSettings(
                true, "bad", null, null, Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(1));
        assertThatThrownBy(() -> new LeaseLeadership(null, "x", bad, List.of(), () -> true, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("renew-deadline");
    }

    @Test
    void shouldKeepRenewingTheLeaseWhenStartingTheDutiesTakesLongerThanTheLease(KubernetesApi api) throws Exception {
        CountDownLatch starting = new CountDownLatch(1);
        CountDownLatch finishStart = new CountDownLatch(1);
        AtomicBoolean secondLed = new AtomicBoolean();
        try (KubernetesClient clientA = api.newClient();
                KubernetesClient clientB = api.newClient()) {
            LeaseLeadership first = new LeaseLeadership(
                    clientA,
                    "slow",
                    election("slow-start", "replica-a"),
                    List.of(duty(
                            () -> {
                                starting.countDown();
                                awaitQuietly(finishStart); // a start that outlasts the Lease several times
                            },
                            () -> {})),
                    () -> true,
                    0);
            first.start();
            assertThat(starting.await(10, TimeUnit.SECONDS))
                    .as("replica-a leads")
                    .isTrue();
            LeaseLeadership second = new LeaseLeadership(
                    clientB,
                    "slow",
                    election("slow-start", "replica-b"),
                    List.of(duty(() -> secondLed.set(true), () -> {})),
                    () -> true,
                    0);
            second.start();
            try {
                List<ZonedDateTime> renewals = new ArrayList<>();
                long until = System.nanoTime() + LEASE.multipliedBy(3).toNanos();
                while (System.nanoTime() < until) {
                    Lease lease = api.client()
                            .leases()
                            .inNamespace("default")
                            .withName("slow-start")
                            .get();
                    assertThat(lease.getSpec().getHolderIdentity()).isEqualTo("replica-a");
                    renewals.add(lease.getSpec().getRenewTime());
                    Thread.sleep(250);
                }
                assertThat(secondLed)
                        .as("replica-b never led while replica-a was starting")
                        .isFalse();
                assertThat(renewals.stream().distinct().count())
                        .as("renewals during the slow start")
                        .isGreaterThanOrEqualTo(3);
            } finally {
                finishStart.countDown();
                second.stop(Duration.ofSeconds(5));
                first.stop(Duration.ofSeconds(5));
            }
        }
    }

    @Test
    void shouldRunTheStepDownAfterAStartThatIsStillRunningWhenClosed(KubernetesApi api) throws Exception {
        CountDownLatch starting = new CountDownLatch(1);
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        try (KubernetesClient client = api.newClient()) {
            LeaseLeadership leadership = new LeaseLeadership(
                    client,
                    "closing",
                    election("closing", "replica-c"),
                    List.of(duty(
                            () -> {
                                starting.countDown();
                                sleepQuietly(Duration.ofMillis(800));
                                order.add("started");
                            },
                            () -> order.add("stopped"))),
                    () -> true,
                    0);
            leadership.start();
            assertThat(starting.await(10, TimeUnit.SECONDS)).isTrue();
            leadership.stop(Duration.ofSeconds(5));
            // stop() returns only after both callbacks ran, in order: no duty runs after it.
            assertThat(order).containsExactly("started", "stopped");
        }
        // fabric8 releases by writing a one-second lease (and no holder, which the CRUD mock's patch keeps): any
        // replica may take it at once instead of waiting out the lease duration.
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(api.client()
                        .leases()
                        .inNamespace("default")
                        .withName("closing")
                        .get()
                        .getSpec()
                        .getLeaseDurationSeconds())
                .as("released on close")
                .isEqualTo(1));
    }

    private static LeaderDuty duty(Runnable lead, Runnable stepDown) {
        return new LeaderDuty() {
            @Override
            public void lead() {
                lead.run();
            }

            @Override
            public void stepDown() {
                stepDown.run();
            }
        };
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
