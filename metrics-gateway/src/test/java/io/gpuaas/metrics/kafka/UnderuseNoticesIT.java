package io.gpuaas.metrics.kafka;

import static io.gpuaas.events.KafkaPrincipal.METRICS_GATEWAY;
import static io.gpuaas.metrics.ledger.LedgerRecords.POOLS;
import static io.gpuaas.metrics.ledger.LedgerRecords.activated;
import static io.gpuaas.metrics.ledger.LedgerRecords.booking;
import static io.gpuaas.metrics.ledger.LedgerRecords.confirmed;
import static io.gpuaas.metrics.ledger.LedgerRecords.scrape;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.KafkaAccess;
import io.gpuaas.events.TopicAdmin;
import io.gpuaas.events.TopicSpec;
import io.gpuaas.events.Topics;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.notice.Notice;
import io.gpuaas.kit.config.KafkaSettings;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.kit.runtime.TopicReplica;
import io.gpuaas.metrics.KafkaFactory;
import io.gpuaas.metrics.config.ProjectionSettings;
import io.gpuaas.metrics.config.UnderuseSettings;
import io.gpuaas.metrics.ledger.LedgerInputs;
import io.gpuaas.metrics.ledger.LedgerSnapshots;
import io.gpuaas.metrics.ledger.PublishedDays;
import io.gpuaas.metrics.ledger.Sealing;
import io.gpuaas.metrics.ledger.UnderuseSent;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Under-use notices on a real broker, as metrics-gateway with its own ACLs: the ledger's feed reads the booking and
 * its samples from the topics, the Lease holder's publisher sends one {@code BookingUnderused}, and none again in the
 * suppression period: not on its next runs as the cut moves on, and not from a new leader whose feed read the first
 * notice back from {@code gpuaas.notices}.
 */
@ExtendWith(KafkaBrokerExtension.class)
class UnderuseNoticesIT {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final Instant T10 = Instant.parse("2026-11-22T10:00:00Z");
    private static final Sealing SEALING = new Sealing(Duration.ofHours(1), Duration.ofMinutes(5));
    private static final ProjectionSettings FAST = new ProjectionSettings(
            Duration.ofMillis(200), Duration.ofSeconds(2), 5, Duration.ofSeconds(1), Duration.ofSeconds(5));

    private KafkaBroker broker;
    private KafkaClients clients;
    private String prefix;
    private final List<TopicReplica> feeds = new ArrayList<>();

    @BeforeEach
    void topics(KafkaBroker broker) {
        this.broker = broker;
        prefix = broker.uniquePrefix();
        clients = new KafkaClients(new KafkaSettings(
                broker.bootstrapServers(),
                prefix,
                broker.serviceCredentials(METRICS_GATEWAY.userName(), KafkaAccess.acls(METRICS_GATEWAY, prefix))));
        try (Admin admin = broker.admin()) {
            TopicAdmin.createAll(admin, prefix);
        }
    }

    @AfterEach
    void stop() {
        feeds.forEach(f -> f.stop(Duration.ofSeconds(5)));
        clients.close();
    }

    /** One replica of the gateway: its ledger feed (notices included) and its publisher, leading when asked. */
    private record Replica(TopicReplica feed, LedgerSnapshots snapshots, UnderusePublisher publisher) {
        List<Notice.BookingUnderused> lead() {
            snapshots.refresh();
            return publisher.publishNew();
        }
    }

    private Replica replica() throws InterruptedException {
        LedgerInputs inputs = new LedgerInputs(POOLS, 0.05, Duration.ofSeconds(30));
        PublishedDays published = new PublishedDays();
        UnderuseSent sent = new UnderuseSent();
        DeadLetterPublisher deadLetters =
                clients.deadLetterPublisher(ProjectionFeeds.LEDGER_GROUP, new PrometheusRegistry());
        TopicReplica feed = new ProjectionFeeds(
                        id -> KafkaFactory.projectionConsumer(clients, id),
                        prefix,
                        deadLetters,
                        deadLetters,
                        FAST,
                        null)
                .ledgerFeed(inputs, published, sent);
        feeds.add(feed);
        feed.start();
        assertThat(feed.awaitCaughtUp(WAIT)).isTrue();
        LedgerSnapshots snapshots = new LedgerSnapshots(inputs, published, SEALING);
        UnderusePublisher publisher = new UnderusePublisher(
                snapshots,
                sent,
                KafkaFactory.noticeProducer(clients),
                Topics.NOTICES.name(prefix),
                UnderuseSettings.defaults());
        return new Replica(feed, snapshots, publisher);
    }

    private void samplesUntil(Instant from, Instant until) {
        for (Instant t = from; !t.isAfter(until); t = t.plusSeconds(30)) {
            send(
                    Topics.GPU_SAMPLES,
                    "n1",
                    scrape("n1", "GPU-1", "h200", "team-a", t, t.isBefore(T10.plusSeconds(600)) ? 0.9 : 0.0));
        }
    }

    @Test
    void shouldSendOneNoticeAndNoSecondInItsPeriodWhenTheCutMovesOnOrAnotherReplicaTakesOver() throws Exception {
        Booking lazy = booking("bk-lazy", "team-a", "h200", 1, T10, T10.plusSeconds(4 * 3600));
        send(Topics.BOOKING_EVENTS, lazy.id(), confirmed(lazy));
        send(Topics.BOOKING_EVENTS, lazy.id(), activated(lazy)); // only an ACTIVE booking is checked
        samplesUntil(T10, T10.plusSeconds(4200)); // cut 11:05: busy 5 of the last 60 minutes

        Replica first = replica();
        assertThat(first.lead()).as("sent by the leader").hasSize(1);
        assertThat(first.lead()).as("its next run").isEmpty();
        await().atMost(WAIT).until(() -> notices().size() == 1);
        Notice.BookingUnderused notice = notices().getFirst();
        assertThat(notice.noticeId()).isEqualTo("bk-lazy/booking-underused@2026-11-22T10:00:00Z");
        assertThat(notice.busyShare()).isEqualTo(0.083333);
        assertThat(notice.threshold()).isEqualTo(0.2);
        assertThat(notice.tenant()).isEqualTo("team-a");

        samplesUntil(T10.plusSeconds(4230), T10.plusSeconds(6000)); // cut 11:35, still idle, same period
        await().atMost(WAIT).until(() -> {
            first.snapshots().refresh();
            return first.snapshots().current().orElseThrow().cut().equals(T10.plusSeconds(5700));
        });
        assertThat(first.lead()).as("the same leader, later in the period").isEmpty();

        Replica second = replica();
        assertThat(second.lead()).as("a new leader that read the notice back").isEmpty();
        assertThat(notices()).as("on the topic").hasSize(1);
    }

    /** The notices topic as SREs and booking-service read it. */
    private List<Notice.BookingUnderused> notices() {
        Map<String, Object> config = broker.clientProperties();
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<Notice.BookingUnderused> out = new ArrayList<>();
        try (var consumer = new KafkaConsumer<>(
                config, new StringDeserializer(), Topics.NOTICES.valueSerde().deserializer())) {
            var partitions = consumer.partitionsFor(Topics.NOTICES.name(prefix)).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> {
                    if (r.value() instanceof Notice.BookingUnderused underused) {
                        out.add(underused);
                    }
                });
            }
        }
        return out;
    }

    private <V> void send(TopicSpec<String, V> topic, String key, V value) {
        try (KafkaProducer<String, V> producer = new KafkaProducer<>(
                broker.clientProperties(),
                topic.keySerde().serializer(),
                topic.valueSerde().serializer())) {
            producer.send(new ProducerRecord<>(topic.name(prefix), key, value)).get();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
