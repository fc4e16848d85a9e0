package io.gpuaas.quota.it;

import static io.gpuaas.events.KafkaPrincipal.BOOKING_SERVICE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.events.KafkaAccess;
import io.gpuaas.events.Topics;
import io.gpuaas.events.notice.Notice;
import io.gpuaas.quota.QuotaProjector;
import io.gpuaas.quota.config.LeaderElectionSettings;
import io.gpuaas.quota.config.QuotaSettings;
import io.gpuaas.quota.k8s.Kind;
import io.gpuaas.testing.k8s.KubernetesApi;
import io.gpuaas.testing.k8s.KubernetesApiExtension;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
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
 * Booking notices published by booking-service (its Kafka user) shown as Kubernetes Events and annotations on the
 * tenant's objects, as {@code kubectl describe} would list them: once per notice and object, also after a restart
 * that reads the notices again, and after the API server refused the writes for a while. The steps run in order on
 * one projector world.
 */
@ExtendWith({KubernetesApiExtension.class, KafkaBrokerExtension.class})
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BookingNoticesIT {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String ENDS_AT = "gpuaas.io/booking-ends-at";
    private static final String RELEASE_AT = "gpuaas.io/no-show-release-at";

    private KubernetesApi api;
    private KubernetesClient client;
    private ProjectorFixture fixture;
    private QuotaProjector projector;
    private KafkaProducer<String, Notice> notices;
    private final Instant end = Instant.now().plus(Duration.ofMinutes(30)).truncatedTo(ChronoUnit.SECONDS);

    @BeforeAll
    void start(KubernetesApi api, KafkaBroker broker) throws Exception {
        this.api = api;
        this.client = api.client();
        fixture = new ProjectorFixture(client, broker);
        Map<String, Object> asBookingService = new HashMap<>(broker.serviceCredentials(
                BOOKING_SERVICE.userName(), KafkaAccess.acls(BOOKING_SERVICE, fixture.prefix)));
        asBookingService.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        notices = new KafkaProducer<>(
                asBookingService,
                new StringSerializer(),
                Topics.NOTICES.valueSerde().serializer());
        projector = startProjector();
    }

    @AfterAll
    void stop() {
        api.faults().heal();
        notices.close();
        fixture.close();
    }

    @Test
    @Order(1)
    void shouldShowEndingSoonOnTheWorkloadAndTheLocalQueueWhenTheNoticeIsRead() throws Exception {
        activeBooking("b-echo", "echo");
        new TestWorkloads(client).create("echo", "train", 1);
        await().atMost(WAIT).until(() -> projector.cache().list(Kind.WORKLOAD).stream()
                .anyMatch(w -> w.getMetadata().getName().equals("train")));

        publish(endingSoon("b-echo", "echo"));

        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(annotation(Kind.WORKLOAD, "echo", "train", ENDS_AT)).contains(end.toString());
            assertThat(annotation(Kind.LOCAL_QUEUE, "echo", "gpuaas", ENDS_AT)).contains(end.toString());
            assertThat(events("echo", "BookingEndingSoon", "Workload", "train")).hasSize(1);
            assertThat(events("echo", "BookingEndingSoon", "LocalQueue", "gpuaas"))
                    .hasSize(1);
        });
        Event event = events("echo", "BookingEndingSoon", "Workload", "train").get(0);
        assertThat(event.getType()).isEqualTo("Warning");
        assertThat(event.getMessage()).contains("b-echo", "h200", end.toString(), "PT5M");
    }

    @Test
    @Order(2)
    void shouldWarnOnTheLocalQueueAndTheClusterQueueWhenANoShowWarningIsRead() throws Exception {
        activeBooking("b-foxtrot", "foxtrot");
        Instant releaseAt = Instant.now().plus(Duration.ofMinutes(10)).truncatedTo(ChronoUnit.SECONDS);

        publish(noShowWarning("b-foxtrot", "foxtrot", releaseAt));

        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(annotation(Kind.LOCAL_QUEUE, "foxtrot", "gpuaas", RELEASE_AT))
                    .contains(releaseAt.toString());
            assertThat(annotation(Kind.CLUSTER_QUEUE, null, "gpuaas-foxtrot", RELEASE_AT))
                    .contains(releaseAt.toString());
            assertThat(events("foxtrot", "NoShowWarning", "LocalQueue", "gpuaas"))
                    .hasSize(1);
            assertThat(events("default", "NoShowWarning", "ClusterQueue", "gpuaas-foxtrot"))
                    .hasSize(1);
        });
        assertThat(events("foxtrot", "NoShowWarning", "LocalQueue", "gpuaas")
                        .get(0)
                        .getMessage())
                .contains("b-foxtrot", "no-show", releaseAt.toString());
    }

    @Test
    @Order(3)
    void shouldKeepOneEventPerNoticeAndObjectWhenARestartedProjectorReadsTheNoticesAgain() throws Exception {
        fixture.stop(projector);
        // Taken off by hand while nobody runs: the restarted projector puts it back once it has read the notice.
        client.resources(Kind.LOCAL_QUEUE.type())
                .inNamespace("echo")
                .withName("gpuaas")
                .edit(lq -> {
                    lq.getMetadata().getAnnotations().remove(ENDS_AT);
                    return lq;
                });

        projector = startProjector();

        await().atMost(WAIT).untilAsserted(() -> assertThat(annotation(Kind.LOCAL_QUEUE, "echo", "gpuaas", ENDS_AT))
                .contains(end.toString()));
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            assertThat(events("echo", "BookingEndingSoon", "Workload", "train")).hasSize(1);
            assertThat(events("echo", "BookingEndingSoon", "LocalQueue", "gpuaas"))
                    .hasSize(1);
            assertThat(events("default", "NoShowWarning", "ClusterQueue", "gpuaas-foxtrot"))
                    .hasSize(1);
        });
    }

    @Test
    @Order(4)
    void shouldRetryARefusedEventAndStayReadyWhenTheApiServerRefusesWrites() throws Exception {
        activeBooking("b-golf", "golf");
        long refusedBefore = api.faults().refused();
        api.faults().failWrites(500, "/api/v1/namespaces/golf/events");

        publish(noShowWarning("b-golf", "golf", Instant.now().plusSeconds(600)));

        await().atMost(WAIT).until(() -> api.faults().refused() > refusedBefore);
        await().during(Duration.ofSeconds(6))
                .atMost(Duration.ofSeconds(10))
                .until(() -> projector.ready()
                        && events("golf", "NoShowWarning", "LocalQueue", "gpuaas")
                                .isEmpty());
        assertThat(api.faults().refused()).as("retried while refused").isGreaterThan(refusedBefore + 1);

        api.faults().heal();

        await().atMost(WAIT).untilAsserted(() -> assertThat(events("golf", "NoShowWarning", "LocalQueue", "gpuaas"))
                .hasSize(1));
        assertThat(projector.ready()).isTrue();
    }

    @Test
    @Order(5)
    void shouldShowOnlyTheNewEndWrittenOnceWhenABookingIsExtendedByLessThanTheLead() throws Exception {
        activeBooking("b-hotel", "hotel");
        new TestWorkloads(client).create("hotel", "train", 1);
        await().atMost(WAIT).until(() -> projector.cache().list(Kind.WORKLOAD).stream()
                .anyMatch(w -> "hotel".equals(w.getMetadata().getNamespace())));
        Instant oldEnd = Instant.now().plusSeconds(10).truncatedTo(ChronoUnit.SECONDS);
        Instant newEnd = oldEnd.plus(Duration.ofMinutes(2));
        publish(endingSoon("b-hotel", "hotel", oldEnd, Instant.now()));
        await().atMost(WAIT).untilAsserted(() -> assertThat(annotation(Kind.WORKLOAD, "hotel", "train", ENDS_AT))
                .contains(oldEnd.toString()));

        Notice extended = endingSoon("b-hotel", "hotel", newEnd, Instant.now().plusMillis(1));
        publish(extended);
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(annotation(Kind.WORKLOAD, "hotel", "train", ENDS_AT)).contains(newEnd.toString());
            assertThat(annotation(Kind.LOCAL_QUEUE, "hotel", "gpuaas", ENDS_AT)).contains(newEnd.toString());
        });
        String workloadVersion = resourceVersion(Kind.WORKLOAD, "hotel", "train");
        String queueVersion = resourceVersion(Kind.LOCAL_QUEUE, "hotel", "gpuaas");

        // Reconciled again and again (each copy of the notice read enqueues the booking), past the old end too.
        while (Instant.now().isBefore(oldEnd.plusSeconds(3))) {
            publish(extended);
            assertThat(annotation(Kind.WORKLOAD, "hotel", "train", ENDS_AT)).contains(newEnd.toString());
            assertThat(annotation(Kind.LOCAL_QUEUE, "hotel", "gpuaas", ENDS_AT)).contains(newEnd.toString());
            Thread.sleep(300);
        }

        assertThat(resourceVersion(Kind.WORKLOAD, "hotel", "train"))
                .as("the Workload written once for the new end")
                .isEqualTo(workloadVersion);
        assertThat(resourceVersion(Kind.LOCAL_QUEUE, "hotel", "gpuaas"))
                .as("the LocalQueue written once for the new end")
                .isEqualTo(queueVersion);
    }

    private String resourceVersion(Kind kind, String namespace, String name) {
        return fixture.get(kind, namespace, name).orElseThrow().getMetadata().getResourceVersion();
    }

    private QuotaProjector startProjector() throws InterruptedException {
        QuotaProjector started =
                fixture.start(QuotaSettings.defaults(), LeaderElectionSettings.defaults(), new PrometheusRegistry());
        await().atMost(WAIT).until(started::leading);
        return started;
    }

    /** An ACTIVE booking of 1 h200 until {@link #end}: the tenant gets its ClusterQueue and LocalQueue. */
    private void activeBooking(String id, String tenant) throws Exception {
        fixture.tenantNamespace(tenant, tenant);
        fixture.book(id, tenant, "h200", 1, Instant.now().minusSeconds(1), end);
        await().atMost(WAIT).until(() -> projector
                .cache()
                .get(new io.gpuaas.quota.k8s.ObjectRef(Kind.LOCAL_QUEUE, tenant, "gpuaas"))
                .isPresent());
    }

    private Notice.BookingEndingSoon endingSoon(String bookingId, String tenant) {
        return endingSoon(bookingId, tenant, end, Instant.now());
    }

    private static Notice.BookingEndingSoon endingSoon(String bookingId, String tenant, Instant end, Instant decided) {
        Duration lead = Duration.ofMinutes(5);
        return new Notice.BookingEndingSoon(
                Notice.endingSoonId(bookingId, lead, end), bookingId, tenant, tenant, "h200", 1, end, lead, decided);
    }

    private static Notice.NoShowWarning noShowWarning(String bookingId, String tenant, Instant releaseAt) {
        Duration grace = Duration.ofMinutes(20);
        return new Notice.NoShowWarning(
                Notice.noShowWarningId(bookingId),
                bookingId,
                tenant,
                tenant,
                "h200",
                1,
                releaseAt.minus(grace),
                releaseAt,
                grace,
                Instant.now());
    }

    private void publish(Notice notice) throws Exception {
        String key =
                switch (notice) {
                    case Notice.BookingEndingSoon n -> n.bookingId();
                    case Notice.NoShowWarning n -> n.bookingId();
                    case Notice.ReclaimPending n -> n.workload().key();
                    case Notice.MigLayoutNotReady n -> n.bookingId();
                    case Notice.ApprovalDecided n -> n.bookingId();
                    case Notice.WaitlistBooked n -> n.bookingId();
                    case Notice.WaitlistExpired n -> n.bookingId();
                    case Notice.BookingUnderused n -> n.bookingId();
                    case Notice.BudgetThresholdReached n -> n.tenant() + "/" + n.month();
                };
        notices.send(new ProducerRecord<>(fixture.kafka.topic(Topics.NOTICES), key, notice))
                .get(10, TimeUnit.SECONDS);
    }

    private Optional<String> annotation(Kind kind, String namespace, String name, String key) {
        return fixture.get(kind, namespace, name)
                .map(HasMetadata::getMetadata)
                .map(m -> m.getAnnotations() == null ? null : m.getAnnotations().get(key));
    }

    /** The Events {@code kubectl describe <kind> <name>} would list with this reason. */
    private List<Event> events(String namespace, String reason, String kind, String name) {
        return client.v1().events().inNamespace(namespace).list().getItems().stream()
                .filter(e -> reason.equals(e.getReason()))
                .filter(e -> kind.equals(e.getInvolvedObject().getKind())
                        && name.equals(e.getInvolvedObject().getName()))
                .toList();
    }
}
