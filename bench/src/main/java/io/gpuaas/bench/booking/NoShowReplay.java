package io.gpuaas.bench.booking;

import io.gpuaas.events.Topics;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingCommand;
import io.gpuaas.events.booking.BookingCommand.CreateBooking;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.Caller;
import io.gpuaas.events.notice.Notice;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.events.workload.WorkloadEvent;
import io.gpuaas.events.workload.WorkloadEvent.Condition;
import io.gpuaas.events.workload.WorkloadEvent.FeedWatermark;
import io.gpuaas.events.workload.WorkloadEvent.PodSet;
import io.gpuaas.events.workload.WorkloadEvent.WorkloadObserved;
import io.gpuaas.testing.kafka.KafkaBroker;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The openb pod list as book-now bookings through the real decision engine and lifecycle: each GPU pod is booked at
 * its (compressed) creation time for its (scaled) lifetime, in its own tenant and namespace (the no-show rule looks at
 * a tenant's Workloads on the pool, so tenants shared by used and unused pods would hide the unused ones). A
 * deterministic 20 % (the lowest fifth of the pods by SHA-256 of the pod name) are never used; for every other
 * confirmed booking a pending Workload of its namespace asking for the pool's resource goes to
 * {@code gpuaas.kueue-workloads}, as quota-projector would write it.
 */
final class NoShowReplay {

    /** One GPU pod of the list, in creation order. */
    record Pod(String name, int gpus, String pool, long created, long deleted, boolean unused) {}

    /** How often the bench writes feed watermarks, as quota-projector does every 30 s (scaled for the bench). */
    static final long WATERMARK_MILLIS = 500;

    private final KafkaBroker broker;
    private final String prefix;
    private final Map<String, Object> service;
    private final Map<String, Pod> byRequest = new ConcurrentHashMap<>();
    private final ReplayTally tally;
    private final AtomicBoolean reading = new AtomicBoolean(true);

    NoShowReplay(KafkaBroker broker, String prefix, Map<String, Object> service, PoolCatalog pools) {
        this.broker = broker;
        this.prefix = prefix;
        this.service = service;
        this.tally = new ReplayTally(pools);
    }

    /** The GPU pods of the list in creation order, the lowest fifth by hash of their name marked unused. */
    static List<Pod> pods(Path csv) throws IOException {
        List<String[]> rows = new ArrayList<>();
        List<String> lines = Files.readAllLines(csv);
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",", -1);
            if (Integer.parseInt(f[3]) > 0) {
                rows.add(f);
            }
        }
        Set<String> unused = rows.stream()
                .map(f -> f[0])
                .sorted(Comparator.comparing(NoShowReplay::hash))
                .limit(rows.size() / 5)
                .collect(Collectors.toSet());
        return rows.stream()
                .map(f -> new Pod(
                        f[0],
                        Integer.parseInt(f[3]),
                        OpenbReplay.poolFor(Integer.parseInt(f[4])),
                        Long.parseLong(f[8]),
                        Math.max(Long.parseLong(f[9]), Long.parseLong(f[8]) + 1),
                        unused.contains(f[0])))
                .sorted(Comparator.comparingLong(Pod::created))
                .toList();
    }

    private static String hash(String name) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Books every pod in creation order, {@code perSecond} of them a second, each for its lifetime at
     * {@code durations} trace seconds per real second, then waits until every release due has had its time.
     *
     * @param grace  the pools' no-show grace (real time)
     * @param margin how long after start + grace a release may still come (lifecycle interval, commit, reading)
     */
    ReplayTally.Outcome run(List<Pod> pods, double perSecond, double durations, Duration grace, Duration margin)
            throws Exception {
        ScheduledExecutorService marks = Executors.newSingleThreadScheduledExecutor();
        try (KafkaProducer<String, WorkloadEvent> workloads = new KafkaProducer<>(
                broker.clientProperties(),
                new StringSerializer(),
                Topics.KUEUE_WORKLOADS.valueSerde().serializer())) {
            marks.scheduleAtFixedRate(() -> watermarks(workloads), 0, WATERMARK_MILLIS, TimeUnit.MILLISECONDS);
            Thread reader = startReader(workloads);
            book(pods, perSecond, durations);
            awaitSettled(pods.size(), grace.plus(margin));
            reading.set(false);
            reader.join();
        } finally {
            marks.shutdownNow();
        }
        return tally.outcome(pods.size(), grace, margin, durations);
    }

    private void book(List<Pod> pods, double perSecond, double durations) {
        try (KafkaProducer<String, BookingCommand> producer = new KafkaProducer<>(
                service,
                new StringSerializer(),
                Topics.BOOKING_COMMANDS.valueSerde().serializer())) {
            long t0 = System.nanoTime();
            for (int i = 0; i < pods.size(); i++) {
                Pod pod = pods.get(i);
                pace(t0 + (long) (i * 1e9 / perSecond));
                CreateBooking command = command(pod, durations);
                byRequest.put(command.requestId(), pod);
                producer.send(new ProducerRecord<>(Topics.BOOKING_COMMANDS.name(prefix), pod.pool(), command));
            }
        }
    }

    /** Until every command is answered (at most 2 min), then until the last booking's release had its time. */
    private void awaitSettled(int commands, Duration releaseWindow) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 120_000;
        while (tally.answered() < commands && System.currentTimeMillis() < deadline) {
            Thread.sleep(100);
        }
        Instant lastStart = tally.lastStart().orElse(Instant.now());
        while (Instant.now().isBefore(lastStart.plus(releaseWindow))) {
            Thread.sleep(100);
        }
    }

    /** ACTIVE bookings of the replay now (confirmed, not released, not ended): what the lifecycle walks. */
    int active() {
        return tally.active(Instant.now());
    }

    private CreateBooking command(Pod pod, double durations) {
        Caller caller = new Caller(pod.name(), pod.name(), false, false);
        long nanos = Math.max(1, (long) ((pod.deleted() - pod.created()) * 1e9 / durations));
        return new CreateBooking(
                UUID.randomUUID().toString(),
                null,
                caller,
                pod.pool(),
                UUID.randomUUID().toString(),
                pod.name(),
                pod.gpus(),
                null,
                null,
                null,
                Instant.now(),
                null,
                Duration.ofNanos(nanos));
    }

    /**
     * The feed watermarks quota-projector's Lease holder writes: one to each partition of the Workload topic, on the
     * producer of the Workloads, so the lifecycle's feed guard finds the feed live.
     */
    private void watermarks(KafkaProducer<String, WorkloadEvent> workloads) {
        String topic = Topics.KUEUE_WORKLOADS.name(prefix);
        Instant now = Instant.now();
        for (var p : workloads.partitionsFor(topic)) {
            FeedWatermark mark = new FeedWatermark(p.partition(), "bench", now);
            workloads.send(
                    new ProducerRecord<>(topic, p.partition(), WorkloadEvent.key(mark.namespace(), mark.name()), mark));
        }
    }

    /** Reads decisions and notices (read_committed, from the start) and writes the used bookings' Workloads. */
    private Thread startReader(KafkaProducer<String, WorkloadEvent> workloads) {
        Map<String, Object> config = new HashMap<>(broker.clientProperties());
        config.put("isolation.level", "read_committed");
        config.put("fetch.max.wait.ms", 20);
        KafkaConsumer<String, byte[]> consumer =
                new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer());
        String events = Topics.BOOKING_EVENTS.name(prefix);
        String notices = Topics.NOTICES.name(prefix);
        List<TopicPartition> partitions = new ArrayList<>();
        for (String topic : List.of(events, notices)) {
            consumer.partitionsFor(topic).forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        var eventReader = Topics.BOOKING_EVENTS.valueSerde().deserializer();
        var noticeReader = Topics.NOTICES.valueSerde().deserializer();
        Thread thread = new Thread(
                () -> {
                    try (consumer) {
                        while (reading.get()) {
                            for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(50))) {
                                if (r.topic().equals(events)) {
                                    onEvent(eventReader.deserialize(r.topic(), r.headers(), r.value()), workloads);
                                } else if (noticeReader.deserialize(r.topic(), r.headers(), r.value())
                                        instanceof Notice.NoShowWarning w) {
                                    tally.warned(w.bookingId());
                                }
                            }
                        }
                    }
                },
                "no-show-reader");
        thread.start();
        return thread;
    }

    private void onEvent(BookingEvent event, KafkaProducer<String, WorkloadEvent> workloads) {
        switch (event) {
            case BookingEvent.BookingConfirmed c -> {
                Pod pod = byRequest.get(c.requestId());
                if (pod != null) {
                    tally.confirmed(pod, c.booking());
                    if (!pod.unused()) {
                        WorkloadObserved w = pending(c.booking());
                        workloads.send(new ProducerRecord<>(
                                Topics.KUEUE_WORKLOADS.name(prefix), WorkloadEvent.key(w.namespace(), w.name()), w));
                    }
                }
            }
            case BookingEvent.BookingRejected r -> {
                if (byRequest.containsKey(r.requestId())) {
                    tally.rejected(r.reason());
                }
            }
            case BookingEvent.BookingReleased r
            when r.reason() == BookingEvent.BookingReleased.Reason.NO_SHOW ->
                tally.released(r.bookingId(), r.releasedAt());
            default -> {}
        }
    }

    /** The pod's Workload as quota-projector writes it while Kueue has not admitted it yet. */
    private static WorkloadObserved pending(Booking b) {
        Instant now = Instant.now();
        Condition queued = new Condition("QuotaReserved", "False", "Pending", "waiting for quota", now);
        return new WorkloadObserved(
                b.namespace(),
                "job-" + b.namespace(),
                UUID.randomUUID().toString(),
                "1",
                "gpuaas",
                null,
                null,
                null,
                true,
                queued,
                List.of(queued),
                List.of(new PodSet("main", 1, Map.of(b.resource(), Integer.toString(b.quantity())))),
                List.of(),
                null,
                now);
    }

    private static void pace(long intendedNanos) {
        long wait = intendedNanos - System.nanoTime();
        if (wait > 0) {
            java.util.concurrent.locks.LockSupport.parkNanos(wait);
        }
    }
}
