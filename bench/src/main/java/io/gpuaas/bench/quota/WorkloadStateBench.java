package io.gpuaas.bench.quota;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.events.Json;
import io.gpuaas.events.Topics;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.quota.k8s.Kind;
import io.gpuaas.testing.kafka.KafkaBroker;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Workload change → quota-state record. Every tenant holds a ClusterQueue; one Workload after another is created
 * and admitted (the status update Kueue would make) in a tenant namespace, round robin, and the clock runs from
 * just before that status update to the arrival, at a consumer, of the ClusterQueue's record counting it.
 */
final class WorkloadStateBench {

    private final KubernetesClient client;
    private final KafkaClients kafka;
    private final KafkaBroker broker;
    private final Map<String, Long> arrivals = new ConcurrentHashMap<>();
    private volatile boolean reading = true;

    WorkloadStateBench(KubernetesClient client, KafkaClients kafka, KafkaBroker broker) {
        this.client = client;
        this.kafka = kafka;
        this.broker = broker;
    }

    List<Latencies> run(int tenants, int samples) throws Exception {
        bookEveryone(tenants);
        Thread reader = Thread.ofPlatform().daemon().start(this::read);
        int[] admitted = new int[tenants];
        List<Double> millis = new ArrayList<>();
        int missing = 0;
        for (int k = 0; k < samples; k++) {
            int i = (k * 7) % tenants;
            String ns = QuotaBench.tenant(i);
            create(ns, "w-" + k);
            Thread.sleep(20);
            admitted[i]++;
            String expected = "cq/gpuaas-" + ns + "#" + admitted[i];
            long t0 = System.nanoTime();
            admit(ns, "w-" + k, "gpuaas-" + ns);
            Long at = await(expected, Duration.ofSeconds(5));
            if (at == null) {
                missing++;
            } else {
                millis.add((at - t0) / 1e6);
            }
        }
        reading = false;
        reader.join(2_000);
        String name = "Workload admitted → quota-state record (ClusterQueue)";
        return List.of(
                Latencies.of(missing == 0 ? name : name + " (" + missing + " never seen)", millis),
                kafkaRoundTrip(samples));
    }

    private void bookEveryone(int tenants) throws Exception {
        try (var producer = new KafkaProducer<String, Booking>(
                kafka.producerConfig("bench-state"),
                new StringSerializer(),
                Topics.BOOKINGS.valueSerde().serializer())) {
            Instant now = Instant.now();
            for (int i = 0; i < tenants; i++) {
                String t = QuotaBench.tenant(i);
                Booking booking = new Booking(
                        "long-" + i,
                        t,
                        t,
                        "h200",
                        "h200",
                        "nvidia.com/gpu",
                        4,
                        now,
                        now.plusSeconds(3600),
                        null,
                        BookingState.ACTIVE,
                        "bench",
                        now,
                        now,
                        1);
                producer.send(new ProducerRecord<>(kafka.topic(Topics.BOOKINGS), booking.id(), booking));
            }
        }
        var localQueues =
                client.genericKubernetesResources(Kind.LOCAL_QUEUE.context()).inAnyNamespace();
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (localQueues.list().getItems().size() < tenants && System.nanoTime() < deadline) {
            Thread.sleep(500);
        }
        Thread.sleep(3_000);
    }

    private void create(String ns, String name) {
        GenericKubernetesResource w = new GenericKubernetesResource();
        w.setApiVersion(Kind.WORKLOAD.apiVersion());
        w.setKind("Workload");
        w.setMetadata(new ObjectMetaBuilder().withNamespace(ns).withName(name).build());
        Map<String, Object> container =
                Map.of("name", "c", "resources", Map.of("limits", Map.of("nvidia.com/gpu", "1")));
        w.setAdditionalProperty(
                "spec",
                Map.of(
                        "queueName",
                        "gpuaas",
                        "podSets",
                        List.of(Map.of(
                                "name",
                                "main",
                                "count",
                                1,
                                "template",
                                Map.of("spec", Map.of("containers", List.of(container)))))));
        client.genericKubernetesResources(Kind.WORKLOAD.context())
                .inNamespace(ns)
                .resource(w)
                .create();
    }

    private void admit(String ns, String name, String clusterQueue) {
        var op = client.genericKubernetesResources(Kind.WORKLOAD.context()).inNamespace(ns);
        GenericKubernetesResource w = op.withName(name).get();
        String now = Instant.now().toString();
        w.setAdditionalProperty(
                "status",
                Map.of(
                        "conditions",
                                List.of(Map.of(
                                        "type",
                                        "QuotaReserved",
                                        "status",
                                        "True",
                                        "reason",
                                        "QuotaReserved",
                                        "message",
                                        "",
                                        "lastTransitionTime",
                                        now)),
                        "admission",
                                Map.of(
                                        "clusterQueue",
                                        clusterQueue,
                                        "podSetAssignments",
                                        List.of(Map.of(
                                                "name",
                                                "main",
                                                "count",
                                                1,
                                                "flavors",
                                                Map.of("nvidia.com/gpu", "h200"),
                                                "resourceUsage",
                                                Map.of("nvidia.com/gpu", "1"))))));
        op.resource(w).updateStatus();
    }

    private Long await(String expected, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            Long at = arrivals.get(expected);
            if (at != null) {
                return at;
            }
            Thread.sleep(0, 200_000);
        }
        return null;
    }

    private void read() {
        String topic = kafka.topic(Topics.QUOTA_STATE);
        try (var consumer =
                new KafkaConsumer<>(kafka.consumerConfig(null), new StringDeserializer(), new StringDeserializer())) {
            var partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToEnd(partitions);
            while (reading) {
                for (var record : consumer.poll(Duration.ofMillis(20))) {
                    long now = System.nanoTime();
                    if (record.value() != null) {
                        JsonNode state = Json.mapper().readTree(record.value());
                        arrivals.putIfAbsent(
                                record.key() + "#"
                                        + state.path("admittedWorkloads").asInt(),
                                now);
                    }
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The floor: a record of the same size produced with the same client settings, until a consumer has it. */
    private Latencies kafkaRoundTrip(int samples) throws Exception {
        String topic = "bench.rtt";
        broker.createTopics(1, topic);
        List<Double> millis = new ArrayList<>();
        Map<String, Object> producerConfig = new HashMap<>(kafka.producerConfig("bench-rtt"));
        String payload = "x".repeat(600);
        try (var producer = new KafkaProducer<>(producerConfig, new StringSerializer(), new StringSerializer());
                var consumer = new KafkaConsumer<>(
                        kafka.consumerConfig(null), new StringDeserializer(), new StringDeserializer())) {
            TopicPartition partition = new TopicPartition(topic, 0);
            consumer.assign(List.of(partition));
            consumer.seekToEnd(List.of(partition));
            consumer.position(partition);
            for (int k = 0; k < samples; k++) {
                long t0 = System.nanoTime();
                producer.send(new ProducerRecord<>(topic, "k" + k, payload));
                boolean got = false;
                while (!got && System.nanoTime() - t0 < 5_000_000_000L) {
                    got = !consumer.poll(Duration.ofMillis(20)).isEmpty();
                }
                if (got) {
                    millis.add((System.nanoTime() - t0) / 1e6);
                }
                Thread.sleep(20);
            }
        }
        return Latencies.of("baseline: Kafka produce → consume (same broker, same producer settings)", millis);
    }
}
