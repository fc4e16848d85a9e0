package io.gpuaas.quota.it;

import static io.gpuaas.quota.it.QuotaLifecycleIT.nominal;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.kit.k8s.LeaseSettings;
import io.gpuaas.kube.kueue.v1beta2.ClusterQueue;
import io.gpuaas.kube.kueue.v1beta2.Cohort;
import io.gpuaas.quota.QuotaProjector;
import io.gpuaas.quota.config.QuotaSettings;
import io.gpuaas.quota.k8s.Kind;
import io.gpuaas.quota.k8s.Ownership;
import io.gpuaas.quota.model.FlavorResource;
import io.gpuaas.testing.k8s.KubernetesApi;
import io.gpuaas.testing.k8s.KubernetesApiExtension;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two replicas of the projector against one API server and one broker, competing for the Lease as two pods do.
 * Replica A reaches the API server through a relay that can be cut (a crash or partition: renewals stop and the
 * Lease is not released); replica B talks to it directly. Each replica's client has its own token, so the API
 * server's request log says who wrote what. The steps run in order and share the two replicas.
 */
@ExtendWith({KubernetesApiExtension.class, KafkaBrokerExtension.class})
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LeaderElectionIT {

    private static final FlavorResource H200 = new FlavorResource("h200", "nvidia.com/gpu");
    private static final FlavorResource MIG_1G = new FlavorResource("h200-mig-1g.18gb", "nvidia.com/mig-1g.18gb");
    private static final String LEASE_NAME = "gpuaas-quota-projector";
    private static final Duration LEASE = Duration.ofSeconds(3);
    private static final Duration RENEW_DEADLINE = Duration.ofMillis(1500);
    private static final Duration RETRY = Duration.ofMillis(300);
    private static final LeaseSettings ELECTION =
            new LeaseSettings(true, LEASE_NAME, null, null, LEASE, RENEW_DEADLINE, RETRY);
    // fabric8 waits retryPeriod plus up to 1.2 × retryPeriod of jitter between attempts; 1 s for a busy 2-core box.
    private static final Duration TAKEOVER =
            LEASE.plus(RETRY.multipliedBy(22).dividedBy(10)).plusSeconds(1);
    // A follower that meant to take over would have done so within this long.
    private static final Duration WATCH = TAKEOVER;
    private static final String TOKEN_A = "replica-a";
    private static final String TOKEN_B = "replica-b";

    private KubernetesApi api;
    private ProjectorFixture fixture;
    private ApiRequests requests;
    private ApiServerProxy proxyA;
    private KubernetesClient clientA;
    private KubernetesClient clientB;
    private final PrometheusRegistry registryA = new PrometheusRegistry();
    private final PrometheusRegistry registryB = new PrometheusRegistry();
    private QuotaProjector replicaA;
    private QuotaProjector replicaB;
    private String identityA;
    private String identityB;
    private Booking echoMig;
    private String echoUid;

    @BeforeAll
    void start(KubernetesApi api, KafkaBroker broker) throws Exception {
        this.api = api;
        fixture = new ProjectorFixture(api.client(), broker);
        requests = new ApiRequests(api.server());
        proxyA = new ApiServerProxy(api.port());
        clientA = client(proxyA.url(), TOKEN_A);
        clientB = client(api.url(), TOKEN_B);
        fixture.tenantNamespace("echo", "echo");
        fixture.tenantNamespace("echo-dev", "echo");
        fixture.tenantNamespace("golf", "golf");
    }

    @AfterAll
    void stop() throws Exception {
        fixture.close();
        clientA.close();
        clientB.close();
        proxyA.close();
    }

    @Test
    @Order(1)
    void shouldLetOnlyTheLeaseHolderWriteWhenTwoReplicasShareOneApiServer() throws Exception {
        replicaA = fixture.start(clientA, QuotaSettings.defaults(), ELECTION, registryA);
        await().atMost(Duration.ofSeconds(20)).until(replicaA::leading);
        identityA = holder().orElseThrow();
        fixture.book(
                "b-echo-h200", "echo", "h200", 2, Instant.now(), Instant.now().plusSeconds(600));
        await().atMost(Duration.ofSeconds(5)).until(() -> nominal(clusterQueue("echo"), H200) == 2);

        int mark = requests.mark();
        replicaB = fixture.start(clientB, QuotaSettings.defaults(), ELECTION, registryB);
        // B has read the bookings and synced its caches: a booking now reaches both replicas, and only A may apply it.
        echoMig = fixture.book(
                "b-echo-mig",
                "echo",
                "h200-mig-1g.18gb",
                3,
                Instant.now(),
                Instant.now().plusSeconds(600));
        await().atMost(Duration.ofSeconds(5)).until(() -> nominal(clusterQueue("echo"), MIG_1G) == 3);
        await().during(WATCH)
                .atMost(WATCH.multipliedBy(2))
                .until(() -> identityA.equals(holder().orElse(null)) && replicaA.leading() && !replicaB.leading());

        assertThat(requests.writes(TOKEN_B, mark))
                .as("API writes by the follower")
                .isEmpty();
        assertThat(requests.writes(TOKEN_A, mark))
                .as("API writes by the leader")
                .isNotEmpty();
        assertThat(requests.reads(TOKEN_B, "/leases/" + LEASE_NAME, mark))
                .as("the follower keeps campaigning")
                .isPositive();
        assertThat(Metrics.sum(registryA, "gpuaas_quota_leader")).isOne();
        assertThat(Metrics.sum(registryB, "gpuaas_quota_leader")).isZero();
        assertThat(Metrics.sum(registryB, "gpuaas_quota_writes"))
                .as("writer outcomes on the follower")
                .isZero();
        echoUid = clusterQueue("echo").getMetadata().getUid();
    }

    @Test
    @Order(2)
    void shouldTakeOverWithinLeaseDurationAndConvergeWhenLeaderCrashes() throws Exception {
        Instant crash = Instant.now();
        proxyA.cut();
        // Changes while nobody may be leading: a booking starts and another is cancelled.
        fixture.book("b-golf", "golf", "h200", 4, crash.plusMillis(500), crash.plusSeconds(600));
        fixture.cancel(echoMig);

        await().atMost(TAKEOVER)
                .pollInterval(Duration.ofMillis(25))
                .until(() -> holder().filter(h -> !h.equals(identityA)).isPresent());
        Duration takeover = Duration.between(crash, Instant.now());
        identityB = holder().orElseThrow();
        // A stepped down at its renew deadline, before its Lease expired: the two never write together.
        assertThat(replicaA.leading())
                .as("crashed replica stepped down before the takeover")
                .isFalse();
        await().atMost(Duration.ofSeconds(5)).until(replicaB::leading);
        System.out.printf(
                "leader crash -> Lease taken over by B in %d ms (lease %s, retry %s)%n",
                takeover.toMillis(), LEASE, RETRY);

        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            assertThat(nominal(clusterQueue("golf"), H200)).isEqualTo(4);
            assertThat(nominal(clusterQueue("echo"), MIG_1G)).isZero();
            assertThat(nominal(clusterQueue("echo"), H200)).isEqualTo(2);
            assertThat(nominal(cohort(), H200)).isEqualTo(8 - 2 - 4);
            assertThat(nominal(cohort(), MIG_1G)).isEqualTo(14);
            assertOwnedObjects();
        });
        assertThat(clusterQueue("echo").getMetadata().getUid())
                .as("echo's queue kept, not re-created")
                .isEqualTo(echoUid);
    }

    @Test
    @Order(3)
    void shouldRejoinAsFollowerWithoutFightingWhenCrashedReplicaComesBack() {
        int mark = requests.mark();
        proxyA.heal();
        await().during(WATCH)
                .atMost(WATCH.multipliedBy(2))
                .until(() -> identityB.equals(holder().orElse(null)) && replicaB.leading() && !replicaA.leading());
        assertThat(requests.writes(TOKEN_A, mark))
                .as("API writes by the returning replica")
                .isEmpty();
        assertThat(requests.reads(TOKEN_A, "/leases/" + LEASE_NAME, mark))
                .as("it campaigns again")
                .isPositive();
    }

    @Test
    @Order(4)
    void shouldHandOverOnShutdownAndLetTheRestartedReplicaFollowWhenLeaderStops() throws Exception {
        double createdBefore = Metrics.sum(registryA, "gpuaas_quota_writes", "outcome", "created");
        double updatedBefore = Metrics.sum(registryA, "gpuaas_quota_writes", "outcome", "updated");
        fixture.stop(replicaB);
        // The returning replica is a real candidate: B released the Lease on shutdown, A takes it and finds nothing to
        // fix.
        await().atMost(TAKEOVER).until(() -> identityA.equals(holder().orElse(null)) && replicaA.leading());
        await().atMost(Duration.ofSeconds(5))
                .until(() -> Metrics.sum(registryA, "gpuaas_quota_writes", "outcome", "unchanged") > 0);
        assertThat(nominal(clusterQueue("golf"), H200)).isEqualTo(4);
        assertThat(nominal(cohort(), H200)).isEqualTo(2);
        assertOwnedObjects();
        assertThat(Metrics.sum(registryA, "gpuaas_quota_writes", "outcome", "created"))
                .isEqualTo(createdBefore);
        assertThat(Metrics.sum(registryA, "gpuaas_quota_writes", "outcome", "updated"))
                .isEqualTo(updatedBefore);

        // B's pod restarts (a new process, a new identity): it follows the current leader.
        int mark = requests.mark();
        QuotaProjector restarted = fixture.start(clientB, QuotaSettings.defaults(), ELECTION, new PrometheusRegistry());
        await().during(WATCH)
                .atMost(WATCH.multipliedBy(2))
                .until(() -> identityA.equals(holder().orElse(null)) && replicaA.leading() && !restarted.leading());
        assertThat(requests.writes(TOKEN_B, mark))
                .as("API writes by the restarted replica")
                .isEmpty();
    }

    /** Exactly the objects the bookings call for, each once: no duplicate, none lost. */
    private void assertOwnedObjects() {
        assertThat(owned(Kind.CLUSTER_QUEUE)).containsExactlyInAnyOrder("/gpuaas-echo", "/gpuaas-golf");
        assertThat(owned(Kind.LOCAL_QUEUE)).containsExactlyInAnyOrder("echo/gpuaas", "echo-dev/gpuaas", "golf/gpuaas");
        assertThat(owned(Kind.COHORT)).containsExactlyInAnyOrder("/gpuaas-pool");
        assertThat(owned(Kind.HARDWARE_PROFILE))
                .containsExactlyInAnyOrder("echo/gpuaas-h200", "echo-dev/gpuaas-h200", "golf/gpuaas-h200");
    }

    private List<String> owned(Kind kind) {
        return api
                .client()
                .genericKubernetesResources(kind.context())
                .inAnyNamespace()
                .withLabel(Ownership.MANAGED_BY, Ownership.MANAGED_BY_VALUE)
                .list()
                .getItems()
                .stream()
                .map(o -> Optional.ofNullable(o.getMetadata().getNamespace()).orElse("") + "/"
                        + o.getMetadata().getName())
                .toList();
    }

    private Optional<String> holder() {
        Lease lease = api.client()
                .leases()
                .inNamespace(KubernetesApi.DEFAULT_NAMESPACE)
                .withName(LEASE_NAME)
                .get();
        return Optional.ofNullable(lease)
                .map(l -> l.getSpec().getHolderIdentity())
                .filter(h -> !h.isEmpty());
    }

    private ClusterQueue clusterQueue(String tenant) {
        return fixture.client
                .resources(ClusterQueue.class)
                .withName("gpuaas-" + tenant)
                .get();
    }

    private Cohort cohort() {
        return fixture.client.resources(Cohort.class).withName("gpuaas-pool").get();
    }

    private KubernetesClient client(String url, String token) {
        return new KubernetesClientBuilder()
                .withConfig(new ConfigBuilder(api.config())
                        .withMasterUrl(url)
                        .withOauthToken(token)
                        .build())
                .withHttpClientFactory(new JdkHttpClientFactory())
                .build();
    }
}
