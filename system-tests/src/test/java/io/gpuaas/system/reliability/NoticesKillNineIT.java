package io.gpuaas.system.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.CloudEventHeaders;
import io.gpuaas.events.CloudEvents;
import io.gpuaas.events.Json;
import io.gpuaas.events.Topics;
import io.gpuaas.events.booking.BookingCommand;
import io.gpuaas.events.booking.BookingCommand.ReleaseBooking;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.BookingEvent.BookingReleased;
import io.gpuaas.events.notice.Notice;
import io.gpuaas.events.notice.Notice.BookingEndingSoon;
import io.gpuaas.events.notice.Notice.NoShowWarning;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.system.reliability.support.BookingServiceJvms;
import io.gpuaas.system.reliability.support.HttpCalls;
import io.gpuaas.system.reliability.support.KafkaProbe;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #16: each notice is emitted once across a {@code kill -9} of the service that emits it, and with two replicas.
 * Two booking-service replicas, each in its own JVM, get bookings whose ending-soon leads (20 s and 10 s) and no-show
 * warnings and releases (graces 12 s and 40 s) fall due over two minutes. 15 s in, replica 1 is killed (its partitions
 * wait for the session timeout, then replica 2 takes them); 35 s in, replica 2 is killed too, so nothing runs while
 * notices are due; at 45 s both are started again on their state directories. Then every notice, release command and
 * release on the topics, read as the SRE user with {@code read_committed}, is counted.
 */
@ExtendWith(KafkaBrokerExtension.class)
class NoticesKillNineIT {

    private static final String ENDING = "h200-mig-1g.18gb";
    private static final String QUICK_NO_SHOW = "h200";
    private static final String SLOW_NO_SHOW = "h200-mig-2g.35gb";
    private static final Duration STARTUP = Duration.ofSeconds(240);

    @Test
    void shouldWriteEachNoticeAndReleaseOnceWhenReplicasAreKilledWhileTheyAreDue(KafkaBroker broker) throws Exception {
        PoolCatalog pools = new PoolCatalog(List.of(
                new Pool(QUICK_NO_SHOW, "h200", "nvidia.com/gpu", 8, "NVIDIA H200", null, Duration.ofSeconds(12)),
                new Pool(ENDING, ENDING, "nvidia.com/mig-1g.18gb", 14, "NVIDIA H200", "1g.18gb", Duration.ZERO),
                new Pool(
                        SLOW_NO_SHOW,
                        SLOW_NO_SHOW,
                        "nvidia.com/mig-2g.35gb",
                        9,
                        "NVIDIA H200",
                        "2g.35gb",
                        Duration.ofSeconds(40))));
        Map<String, String> settings = Map.of(
                "gpuaas.booking.alignment", "PT1S",
                "gpuaas.booking.http.requests-per-second", "1000",
                "gpuaas.booking.http.burst", "1000",
                "gpuaas.booking.lifecycle.interval", "PT0.25S",
                "gpuaas.booking.lifecycle.ending-soon-leads", "PT20S,PT10S",
                // No quota-projector writes feed watermarks here: the no-show release's feed guard is off.
                "gpuaas.booking.lifecycle.feed-staleness", "PT0S");
        try (BookingServiceJvms jvms = BookingServiceJvms.prepare(
                broker,
                broker.uniquePrefix(),
                Path.of("target/notices-kill-nine").toAbsolutePath(),
                pools,
                settings)) {
            jvms.start(1);
            jvms.start(2);
            jvms.awaitHealthy(1, STARTUP);
            jvms.awaitHealthy(2, STARTUP);
            Run run = new Run(jvms, Instant.now());
            run.book();
            run.killAndRestart();
            run.awaitOutcomes();
            run.check();
        }
    }

    /** One pass of the scenario: the bookings, the kill and restart times, and the checks. */
    private static final class Run {

        private final BookingServiceJvms jvms;
        private final Instant t0;
        private final Map<String, Instant> endingSoon = new LinkedHashMap<>();
        private final List<String> noShows = new ArrayList<>();
        private Instant allKilled;
        private Instant resumed;
        private int requests;

        Run(BookingServiceJvms jvms, Instant t0) {
            this.jvms = jvms;
            this.t0 = t0;
        }

        /** Ten bookings ending 30 s to 120 s from now, four no-shows on each no-show pool. */
        void book() {
            for (int seconds = 30; seconds <= 120; seconds += 10) {
                Map<String, Object> booking = bookNow("team-a", ENDING, "PT" + seconds + "S");
                endingSoon.put((String) booking.get("id"), Instant.parse((String) booking.get("end")));
            }
            for (String pool : List.of(QUICK_NO_SHOW, SLOW_NO_SHOW)) {
                for (int i = 0; i < 4; i++) {
                    noShows.add((String) bookNow("team-b", pool, "PT3M").get("id"));
                }
            }
        }

        void killAndRestart() throws Exception {
            sleepUntil(t0.plusSeconds(15));
            jvms.kill(1);
            sleepUntil(t0.plusSeconds(35));
            jvms.kill(2);
            allKilled = Instant.now();
            sleepUntil(t0.plusSeconds(45));
            jvms.start(1);
            jvms.start(2);
            jvms.awaitHealthy(1, STARTUP);
            jvms.awaitHealthy(2, STARTUP);
            resumed = Instant.now();
        }

        /** Until every booking has ended and every no-show is released (or a deadline says it never will be). */
        void awaitOutcomes() throws InterruptedException {
            Instant last = endingSoon.values().stream().max(Instant::compareTo).orElseThrow();
            sleepUntil(last.isAfter(resumed) ? last.plusSeconds(3) : resumed.plusSeconds(15));
            Instant deadline = Instant.now().plusSeconds(120);
            while (released().size() < noShows.size() && Instant.now().isBefore(deadline)) {
                Thread.sleep(1000);
            }
        }

        void check() {
            List<ConsumerRecord<byte[], byte[]>> raw = jvms.probe().readAll(jvms.topic("notices"));
            List<Notice> notices = decode(raw, Topics.NOTICES.valueSerde().deserializer());
            System.out.printf(
                    "notices-kill-nine: %d ending-soon and %d no-show-warning notices (%d due while no replica ran), %d"
                            + " no-shows released; all killed %d s after t0, both UP again at %d s%n",
                    notices.stream().filter(BookingEndingSoon.class::isInstance).count(),
                    notices.stream().filter(NoShowWarning.class::isInstance).count(),
                    notices.stream()
                            .filter(n -> !due(n).isBefore(allKilled) && due(n).isBefore(resumed))
                            .count(),
                    released().size(),
                    Duration.between(t0, allKilled).toSeconds(),
                    Duration.between(t0, resumed).toSeconds());

            assertThat(counts(notices, Notice::noticeId))
                    .as("copies of each notice")
                    .allSatisfy((id, copies) -> assertThat(copies).as(id).isOne());
            assertThat(raw).allSatisfy(r -> assertThat(KafkaProbe.header(r, CloudEvents.ID))
                    .isEqualTo(CloudEventHeaders.idOf(notice(r).noticeId()).toString()));
            assertThat(notices)
                    .as("a notice due while no replica ran, sent after the restart")
                    .anySatisfy(n -> assertThat(due(n)).isBetween(allKilled, resumed));
            endingSoon.forEach((id, end) -> {
                if (end.isAfter(resumed.plusSeconds(5))) {
                    assertThat(notices)
                            .as("the 10 s notice of %s, ending %s", id, end)
                            .anyMatch(n -> n instanceof BookingEndingSoon s
                                    && s.bookingId().equals(id)
                                    && s.lead().equals(Duration.ofSeconds(10)));
                }
            });
            List<ReleaseBooking> commands = releaseCommands();
            assertThat(counts(commands, ReleaseBooking::bookingId))
                    .as("no-show release commands per booking")
                    .containsOnlyKeys(noShows)
                    .allSatisfy((id, n) -> assertThat(n).as(id).isOne());
            assertThat(counts(released(), r -> r.booking().id()))
                    .as("BookingReleased NO_SHOW per booking")
                    .containsOnlyKeys(noShows)
                    .allSatisfy((id, n) -> assertThat(n).as(id).isOne());
        }

        private Map<String, Object> bookNow(String tenant, String pool, String duration) {
            String body = "{\"pool\":\"" + pool + "\",\"quantity\":1,\"namespace\":\"" + tenant + "\",\"duration\":\""
                    + duration + "\"}";
            HttpCalls.Response created = jvms.http()
                    .send(
                            "POST",
                            jvms.url(1 + requests++ % 2) + "/api/v1/bookings",
                            jvms.token(tenant, List.of(tenant)),
                            body,
                            Map.of());
            assertThat(created.status()).as(created.body()).isEqualTo(201);
            try {
                @SuppressWarnings("unchecked")
                Map<String, Object> booking = Json.mapper().readValue(created.body(), Map.class);
                return booking;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private List<ReleaseBooking> releaseCommands() {
            List<BookingCommand> commands = decode(
                    jvms.probe().readAll(jvms.topic("booking-commands")),
                    Topics.BOOKING_COMMANDS.valueSerde().deserializer());
            return commands.stream()
                    .filter(c -> c instanceof ReleaseBooking r && r.reason() == ReleaseBooking.Reason.NO_SHOW)
                    .map(ReleaseBooking.class::cast)
                    .toList();
        }

        private List<BookingReleased> released() {
            List<BookingEvent> events = decode(
                    jvms.probe().readAll(jvms.topic("booking-events")),
                    Topics.BOOKING_EVENTS.valueSerde().deserializer());
            return events.stream()
                    .filter(e -> e instanceof BookingReleased r && r.reason() == BookingReleased.Reason.NO_SHOW)
                    .map(BookingReleased.class::cast)
                    .toList();
        }

        private static Notice notice(ConsumerRecord<byte[], byte[]> r) {
            return Topics.NOTICES.valueSerde().deserializer().deserialize(r.topic(), r.headers(), r.value());
        }

        /** When a notice was due: its lead before the end, or half the grace. */
        private static Instant due(Notice notice) {
            return switch (notice) {
                case BookingEndingSoon s -> s.endsAt().minus(s.lead());
                case NoShowWarning w -> w.releaseAt().minus(w.grace().dividedBy(2));
                case Notice.ReclaimPending p -> throw new IllegalStateException("booking-service emits no " + p);
                case Notice.MigLayoutNotReady m -> throw new IllegalStateException("booking-service emits no " + m);
                case Notice.BookingUnderused u -> throw new IllegalStateException("booking-service emits no " + u);
            };
        }

        private static <T> List<T> decode(List<ConsumerRecord<byte[], byte[]>> raw, Deserializer<T> deserializer) {
            return raw.stream()
                    .map(r -> deserializer.deserialize(r.topic(), r.headers(), r.value()))
                    .toList();
        }

        private static <T> Map<String, Long> counts(List<T> items, Function<T, String> key) {
            return items.stream().collect(Collectors.groupingBy(key, Collectors.counting()));
        }

        private static void sleepUntil(Instant when) throws InterruptedException {
            long millis = Duration.between(Instant.now(), when).toMillis();
            if (millis > 0) {
                Thread.sleep(millis);
            }
        }
    }
}
