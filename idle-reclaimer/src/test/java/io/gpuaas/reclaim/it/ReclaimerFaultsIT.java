package io.gpuaas.reclaim.it;

import static io.gpuaas.events.KafkaPrincipal.IDLE_RECLAIMER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.events.KafkaAccess;
import io.gpuaas.events.TopicAdmin;
import io.gpuaas.events.Topics;
import io.gpuaas.events.gpu.GpuScrapeEvent;
import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.reclaim.ReclaimIntent;
import io.gpuaas.kube.kserve.v1beta1.InferenceService;
import io.gpuaas.reclaim.Fixtures;
import io.gpuaas.reclaim.Samples;
import io.gpuaas.reclaim.Samples.Device;
import io.gpuaas.reclaim.ScaleWrites;
import io.gpuaas.reclaim.k8s.KubeResources;
import io.gpuaas.reclaim.k8s.ReclaimedState;
import io.gpuaas.testing.auth.TestJwt;
import io.gpuaas.testing.health.Readiness;
import io.gpuaas.testing.k8s.KubernetesApi;
import io.gpuaas.testing.k8s.KubernetesApiExtension;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import java.nio.file.Files;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The service as deployed (Micronaut, a real broker as the idle-reclaimer user, the mock API server) while parts of
 * its world fail for a while: the applier throws, the broker cuts it off, the API server refuses writes. A failing
 * applier or intake takes readiness DOWN and comes back by itself; a refusing API server is retried without going
 * unready. Each time the workload that went idle meanwhile is scaled down once and reported once. The steps share
 * one service (one workload each) and run in order.
 */
@ExtendWith({KafkaBrokerExtension.class, KubernetesApiExtension.class})
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReclaimerFaultsIT {

    private static final TestJwt JWT = TestJwt.generate();
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final Duration STILL = Duration.ofSeconds(3);
    private static final String NS = "team-a";
    private static final Duration INTERVAL = Duration.ofMillis(200);
    private static final List<String> WORKLOADS = List.of("thrown", "cut", "refused");

    private KafkaBroker broker;
    private KubernetesApi api;
    private KubernetesClient client;
    private String prefix;
    private String applicationId;
    private ApplicationContext context;
    private EmbeddedServer server;
    private Readiness readiness;
    private KafkaProducer<String, GpuScrapeEvent> samples;
    private ScaleWrites writes;
    private TopicTail<ReclaimEvent> events;
    private TopicTail<ReclaimIntent> intents;

    @BeforeAll
    void start(KafkaBroker broker, KubernetesApi api) throws Exception {
        this.broker = broker;
        this.api = api;
        prefix = broker.uniquePrefix();
        try (Admin admin = broker.admin()) {
            TopicAdmin.createAll(admin, prefix);
        }
        client = api.newClient();
        client.namespaces().resource(Fixtures.namespace(NS, "team-a")).create();
        for (String name : WORKLOADS) {
            client.resources(InferenceService.class)
                    .inNamespace(NS)
                    .resource(Fixtures.inferenceService(NS, name, 2, Map.of()))
                    .create();
            client.pods()
                    .inNamespace(NS)
                    .resource(Fixtures.predictor(NS, name, name + "-predictor-0", "nvidia.com/gpu", 1))
                    .create();
        }
        writes = ScaleWrites.watch(client, InferenceService.class, NS);
        applicationId = broker.uniqueGroupId("idle-reclaimer-faults");
        Map<String, Object> props = new HashMap<>(Map.of(
                "micronaut.server.port",
                -1,
                "gpuaas.kafka.topic-prefix",
                prefix,
                "gpuaas.security.jwks-path",
                JWT.writeJwks(Files.createTempFile("jwks", ".json")).toString(),
                "gpuaas.reclaimer.application-id",
                applicationId,
                // Retries of the applier at most 2 s apart, so a lifted fault is noticed quickly.
                "gpuaas.reclaimer.retry-after",
                "2s",
                "gpuaas.reclaimer.policy.window",
                "2s",
                "gpuaas.reclaimer.policy.sample-interval",
                "200ms",
                "gpuaas.reclaimer.policy.warm-up",
                "0s",
                FaultyScaleAction.ENABLED,
                true));
        props.putAll(broker.serviceProperties(IDLE_RECLAIMER.userName(), acls()));
        context = ApplicationContext.builder()
                .singletons(client)
                .properties(props)
                .start();
        server = context.getBean(EmbeddedServer.class).start();
        // As an SRE with the metrics role reads it: with each component's state.
        String sre = JWT.token("sre", "platform", List.of(), List.of("metrics"), Duration.ofMinutes(5));
        readiness = Readiness.onPort(server.getPort()).withToken(sre).within(WAIT);
        samples = new KafkaProducer<>(
                broker.clientProperties(),
                new StringSerializer(),
                Topics.GPU_SAMPLES.valueSerde().serializer());
        events = new TopicTail<>(broker, Topics.RECLAIM_EVENTS, prefix);
        intents = new TopicTail<>(broker, Topics.RECLAIM_INTENTS, prefix);
    }

    @AfterAll
    void stop() throws Exception {
        events.close();
        intents.close();
        samples.close();
        server.close();
        context.close();
        writes.close();
        client.close();
    }

    @BeforeEach
    void ready() {
        readiness.awaitUp();
    }

    @Test
    @Order(1)
    void shouldBeUnreadyWhileTheApplierThrowsAndReclaimOnceWhenItStops() throws Exception {
        FaultyScaleAction applier = context.getBean(FaultyScaleAction.class);
        applier.failing(true);
        try {
            goIdle("thrown");
            Readiness.Answer recovering = readiness.awaitComponent("reclaim-applier", "RECOVERING");
            assertThat(recovering.down()).isTrue();
            assertThat(recovering.body())
                    .contains("injected: the applier breaks on " + NS + "/InferenceService/thrown@");
            assertThat(applier.thrown()).isGreaterThanOrEqualTo(5);
            assertThat(minReplicas("thrown"))
                    .as("nothing is written while the applier fails")
                    .isEqualTo(2);
            assertThat(eventsOf("thrown", ReclaimEvent.Reclaimed.class)).isEmpty();
        } finally {
            applier.failing(false);
        }

        readiness.awaitUp();
        assertReclaimedOnce("thrown");
    }

    @Test
    @Order(2)
    void shouldBeUnreadyWhileCutOffFromTheBrokerAndReclaimOnceWhenAccessReturns() throws Exception {
        broker.deleteAcls(acls());
        try {
            readiness.awaitComponent("reclaim-intents", "RECOVERING");
            goIdle("cut");
            // However often the intake retries meanwhile, it never claims to follow while it cannot.
            readiness.awaitDownFor(STILL);
            assertThat(minReplicas("cut"))
                    .as("nothing is decided while cut off")
                    .isEqualTo(2);
        } finally {
            broker.createAcls(acls());
        }

        readiness.awaitUp();
        assertReclaimedOnce("cut");
    }

    @Test
    @Order(3)
    void shouldStayReadyWhileTheApiServerRefusesWritesAndReclaimOnceWhenItAnswersAgain() throws Exception {
        long refusedBefore = api.faults().refused();
        api.faults().failWrites(503, "/apis/serving.kserve.io/");
        try {
            goIdle("refused");
            waiting()
                    .until(() -> eventsOf("refused", ReclaimEvent.ReclaimFailed.class)
                                    .size()
                            == 1);
            // One broken object does not take the service out of readiness; the applier keeps trying.
            readiness.awaitUpFor(STILL);
            waiting().until(() -> api.faults().refused() - refusedBefore >= 3);
            assertThat(minReplicas("refused")).isEqualTo(2);
        } finally {
            api.faults().heal();
        }

        assertReclaimedOnce("refused");
        assertThat(eventsOf("refused", ReclaimEvent.ReclaimFailed.class))
                .as("a failure is reported once per intent, however often it is retried")
                .singleElement()
                .satisfies(failed -> assertThat(failed.reason()).isEqualTo("API_ERROR"));
    }

    /**
     * Awaitility, without failing on other threads' uncaught exceptions: Kafka Streams rethrows a failed stream
     * thread's exception on that thread after the handler chose to replace it, and that failure is the fault here.
     */
    private static ConditionFactory waiting() {
        return await().atMost(WAIT).dontCatchUncaughtExceptions();
    }

    /** Scaled down once under the one window decided for it, and reported reclaimed once, and it stays so. */
    private void assertReclaimedOnce(String name) {
        waiting().until(() -> Integer.valueOf(0).equals(minReplicas(name)));
        List<ReclaimIntent.ReclaimRequested> requested = intents.records().stream()
                .filter(i -> i instanceof ReclaimIntent.ReclaimRequested
                        && i.workload().name().equals(name))
                .map(ReclaimIntent.ReclaimRequested.class::cast)
                .toList();
        assertThat(requested).hasSize(1);
        String window = requested.getFirst().windowId();
        assertThat(ReclaimedState.parse(annotation(name)).actionId()).isEqualTo(window);
        waiting().during(STILL).untilAsserted(() -> {
            assertThat(eventsOf(name, ReclaimEvent.Reclaimed.class))
                    .singleElement()
                    .satisfies(r -> assertThat(r.gpusFreed()).isEqualTo(1));
            assertThat(writes.of(window))
                    .as("successful scale-down updates of %s", window)
                    .isEqualTo(1);
        });
    }

    /** Idle samples of the workload's one GPU for more than a window. */
    private void goIdle(String name) {
        Device gpu = new Device("node-1", "GPU-" + name, null, NS, name + "-predictor-0");
        Samples.startingSoon(INTERVAL)
                .run(gpu, 0, 12, 0.0)
                .forEach(s -> samples.send(new ProducerRecord<>(Topics.GPU_SAMPLES.name(prefix), s.key(), s)));
        samples.flush();
    }

    private <T extends ReclaimEvent> List<T> eventsOf(String name, Class<T> type) {
        return events.records().stream()
                .filter(e -> type.isInstance(e) && e.workload().name().equals(name))
                .map(type::cast)
                .toList();
    }

    private List<AclBinding> acls() {
        return KafkaAccess.acls(IDLE_RECLAIMER, prefix, applicationId);
    }

    private InferenceService isvc(String name) {
        return client.resources(InferenceService.class)
                .inNamespace(NS)
                .withName(name)
                .get();
    }

    private Integer minReplicas(String name) {
        return isvc(name).getSpec().getPredictor().getMinReplicas();
    }

    private String annotation(String name) {
        return KubeResources.annotations(isvc(name)).get(KubeResources.RECLAIMED_STATE);
    }
}
