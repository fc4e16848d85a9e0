package io.gpuaas.quota.it;

import static io.gpuaas.events.KafkaPrincipal.QUOTA_PROJECTOR;
import static io.gpuaas.quota.it.QuotaLifecycleIT.nominal;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.events.KafkaAccess;
import io.gpuaas.events.Labels;
import io.gpuaas.events.TopicAdmin;
import io.gpuaas.events.Topics;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.kube.kueue.v1beta2.ClusterQueue;
import io.gpuaas.kube.kueue.v1beta2.Cohort;
import io.gpuaas.quota.QuotaProjector;
import io.gpuaas.quota.model.FlavorResource;
import io.gpuaas.testing.auth.TestJwt;
import io.gpuaas.testing.health.Readiness;
import io.gpuaas.testing.k8s.KubernetesApi;
import io.gpuaas.testing.k8s.KubernetesApiExtension;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The service as deployed (Micronaut, a real broker as the quota-projector user, the mock API server, the Lease)
 * while parts of its world fail for a while: its bookings replica's handler, the API server's writes, its Kafka
 * access. Each time readiness goes DOWN while the fault lasts, comes back UP by itself when it ends, and quota follows
 * the bookings again, including those written during the fault. The steps share one service and run in order.
 */
@ExtendWith({KafkaBrokerExtension.class, KubernetesApiExtension.class})
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ProjectorFaultsIT {

    private static final TestJwt JWT = TestJwt.generate();
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final FlavorResource H200 = new FlavorResource("h200", "nvidia.com/gpu");

    private final AtomicBoolean handlerFails = new AtomicBoolean();
    private KafkaBroker broker;
    private KubernetesApi api;
    private KubernetesClient client;
    private String prefix;
    private ApplicationContext context;
    private EmbeddedServer server;
    private Readiness readiness;
    private KafkaProducer<String, Booking> bookings;

    @BeforeAll
    void start(KafkaBroker broker, KubernetesApi api) throws Exception {
        this.broker = broker;
        this.api = api;
        prefix = broker.uniquePrefix();
        try (Admin admin = broker.admin()) {
            TopicAdmin.createAll(admin, prefix);
        }
        client = api.newClient();
        for (String tenant : List.of("alpha", "bravo", "charlie", "delta", "echo")) {
            client.namespaces()
                    .resource(new NamespaceBuilder()
                            .withNewMetadata()
                            .withName(tenant)
                            .addToLabels(Labels.TENANT, tenant)
                            .endMetadata()
                            .build())
                    .create();
        }
        bookings = new KafkaProducer<>(
                broker.clientProperties(),
                new StringSerializer(),
                Topics.BOOKINGS.valueSerde().serializer());
        // The seam: the booking table's handler, wrapped so the test can make it throw.
        QuotaProjector.Options options = new QuotaProjector.Options(Clock.systemUTC(), handler -> (key, booking) -> {
            if (handlerFails.get()) {
                throw new IllegalStateException("injected: the bookings view rejects " + key);
            }
            handler.apply(key, booking);
        });
        Map<String, Object> props = new HashMap<>(Map.of(
                "micronaut.server.port",
                -1,
                "gpuaas.kafka.topic-prefix",
                prefix,
                "gpuaas.security.jwks-path",
                JWT.writeJwks(Files.createTempFile("jwks", ".json")).toString()));
        props.putAll(broker.serviceProperties(QUOTA_PROJECTOR.userName(), acls()));
        context = ApplicationContext.builder()
                .singletons(client, options)
                .properties(props)
                .start();
        server = context.getBean(EmbeddedServer.class).start();
        // As an SRE with the metrics role reads it: with each component's state.
        String sre = JWT.token("sre", "platform", List.of(), List.of("metrics"), Duration.ofMinutes(5));
        readiness = Readiness.onPort(server.getPort()).withToken(sre).within(WAIT);
        readiness.awaitUp();
    }

    @AfterAll
    void stop() {
        server.close();
        context.close();
        bookings.close();
        client.close();
    }

    @Test
    @Order(1)
    void shouldBeUnreadyWhileTheBookingHandlerFailsAndProjectBookingsAgainWhenItRecovers() throws Exception {
        handlerFails.set(true);
        book("b-alpha", "alpha", 2);

        Readiness.Answer recovering = readiness.awaitComponent("booking-table", "RECOVERING");
        assertThat(recovering.down()).isTrue();
        assertThat(recovering.body()).contains("injected");
        assertThat(clusterQueue("alpha"))
                .as("the booking is not applied while the handler fails")
                .isNull();

        handlerFails.set(false);
        readiness.awaitUp();
        await().atMost(WAIT).until(() -> nominal(clusterQueue("alpha"), H200) == 2);
        book("b-bravo", "bravo", 1);
        await().atMost(WAIT).until(() -> nominal(clusterQueue("bravo"), H200) == 1);
        assertThat(nominal(cohort(), H200)).isEqualTo(8 - 2 - 1);
    }

    @Test
    @Order(2)
    void shouldBeUnreadyWhileTheApiServerRefusesWritesAndConvergeWhenItAnswersAgain() throws Exception {
        api.faults().failWrites(503, "/apis/kueue.x-k8s.io/");
        try {
            book("b-charlie", "charlie", 3);
            assertThat(readiness.awaitComponent("quota-writer", "RECOVERING").down())
                    .isTrue();
            assertThat(clusterQueue("charlie")).isNull();
        } finally {
            api.faults().heal();
        }

        readiness.awaitUp();
        await().atMost(WAIT).until(() -> nominal(clusterQueue("charlie"), H200) == 3);
        await().atMost(WAIT).until(() -> nominal(cohort(), H200) == 8 - 2 - 1 - 3);
        assertThat(api.faults().refused()).isPositive();
    }

    @Test
    @Order(3)
    void shouldBeUnreadyWhileCutOffFromTheBrokerAndFollowBookingsAgainWhenAccessReturns() throws Exception {
        broker.deleteAcls(acls());
        try {
            book("b-delta", "delta", 1);
            assertThat(readiness.awaitComponent("booking-table", "RECOVERING").down())
                    .isTrue();
        } finally {
            broker.createAcls(acls());
        }

        readiness.awaitUp();
        await().atMost(WAIT).until(() -> nominal(clusterQueue("delta"), H200) == 1);
        book("b-echo", "echo", 1);
        await().atMost(WAIT).until(() -> nominal(clusterQueue("echo"), H200) == 1);
        assertThat(nominal(cohort(), H200)).isEqualTo(8 - 2 - 1 - 3 - 1 - 1);
    }

    private List<AclBinding> acls() {
        return KafkaAccess.acls(QUOTA_PROJECTOR, prefix);
    }

    private void book(String id, String tenant, int gpus) throws Exception {
        Booking booking = new Booking(
                id,
                tenant,
                tenant,
                "h200",
                "h200",
                "nvidia.com/gpu",
                gpus,
                Instant.now(),
                Instant.now().plusSeconds(600),
                null,
                BookingState.CONFIRMED,
                "alice",
                Instant.now(),
                Instant.now(),
                1);
        bookings.send(new ProducerRecord<>(Topics.BOOKINGS.name(prefix), id, booking))
                .get(10, TimeUnit.SECONDS);
    }

    private ClusterQueue clusterQueue(String tenant) {
        return client.resources(ClusterQueue.class).withName("gpuaas-" + tenant).get();
    }

    private Cohort cohort() {
        return client.resources(Cohort.class).withName("gpuaas-pool").get();
    }
}
