package io.gpuaas.metrics.kafka;

import static io.gpuaas.metrics.ledger.LedgerRecords.POOLS;
import static io.gpuaas.metrics.ledger.LedgerRecords.booking;
import static io.gpuaas.metrics.ledger.LedgerRecords.confirmed;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.usage.UsageDaily;
import io.gpuaas.events.usage.UsageLedgerEvent;
import io.gpuaas.metrics.ledger.LedgerInputs;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

class LedgerPublisherTest {

    private static final Instant T10 = Instant.parse("2026-11-22T10:00:00Z");

    private final LedgerInputs ledger = new LedgerInputs(POOLS, 0.05, Duration.ofSeconds(30));
    private final MockProducer<String, UsageLedgerEvent> producer =
            new MockProducer<>(true, null, new StringSerializer(), (topic, value) -> new byte[0]);
    private final AtomicBoolean caughtUp = new AtomicBoolean(true);
    private final LedgerPublisher publisher =
            new LedgerPublisher(ledger, producer, "gpuaas.usage-ledger", Duration.ofMinutes(1), caughtUp::get);

    @Test
    void shouldPublishADayOnceAndAgainOnlyWhenItsFiguresChange() {
        Booking b = booking("bk-1", "team-a", "h200", 1, T10, T10.plus(Duration.ofHours(2)));
        ledger.apply(confirmed(b));

        assertThat(publisher.publishChanged())
                .extracting(UsageDaily::tenant, UsageDaily::day, d -> d.total().booked())
                .containsExactly(org.assertj.core.groups.Tuple.tuple("team-a", "2026-11-22", 2.0));
        assertThat(publisher.publishChanged()).isEmpty();

        ledger.apply(confirmed(booking("bk-2", "team-b", "h200", 1, T10, T10.plus(Duration.ofHours(1)))));
        assertThat(publisher.publishChanged()).extracting(UsageDaily::tenant).containsExactly("team-b");
        assertThat(producer.history())
                .extracting(r -> r.key())
                .containsExactly("team-a/2026-11-22", "team-b/2026-11-22");
    }

    @Test
    void shouldPublishADayWithoutFiguresWhenItsOnlyBookingIsCancelledBeforeItsStart() {
        Booking b = booking("bk-1", "team-a", "h200", 1, T10, T10.plus(Duration.ofHours(2)));
        ledger.apply(confirmed(b));
        publisher.publishChanged();

        Booking cancelled = b.withState(BookingState.CANCELLED, T10.minusSeconds(60));
        ledger.apply(new BookingEvent.BookingCancelled("req-cancel", cancelled, T10.minusSeconds(60)));

        assertThat(publisher.publishChanged()).singleElement().satisfies(d -> {
            assertThat(d.pools()).isEmpty();
            assertThat(d.total()).isEqualTo(UsageDaily.Figures.ZERO);
        });
        assertThat(publisher.publishChanged()).isEmpty();
    }

    @Test
    void shouldPublishEveryDayAgainWhenItLeadsAnew() {
        ledger.apply(confirmed(booking("bk-1", "team-a", "h200", 1, T10, T10.plus(Duration.ofHours(2)))));
        caughtUp.set(false);
        publisher.start();
        publisher.lead();
        publisher.stepDown();
        assertThat(producer.history())
                .as("nothing while the ledger feed is behind")
                .isEmpty();

        assertThat(publisher.publishChanged()).hasSize(1);
        publisher.lead();
        publisher.stepDown();
        assertThat(publisher.publishChanged())
                .as("a new leader sends every day once")
                .hasSize(1);
    }
}
