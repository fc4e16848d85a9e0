package io.gpuaas.booking.stream;

import io.gpuaas.booking.model.Approvals;
import io.gpuaas.booking.model.BookingDecider;
import io.gpuaas.booking.model.BookingLedger;
import io.gpuaas.booking.model.Decision;
import io.gpuaas.booking.model.IdempotencyEntry;
import io.gpuaas.booking.model.KeepDecisions;
import io.gpuaas.booking.model.KeptHours;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingCommand;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.WaitlistEntry;
import io.gpuaas.events.notice.Notice;
import io.gpuaas.events.reclaim.KeepRequested;
import java.time.Duration;
import java.time.Instant;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The single writer of the pools in one partition of {@code booking-commands}: decides each command against the
 * ledger and, in the same Kafka Streams transaction, updates the stores and forwards events and booking states.
 * A wall-clock punctuation moves due bookings along their lifecycle. The in-memory indexes of the ledger are
 * rebuilt in {@link #init}, which Kafka Streams calls again whenever the task is (re)created after a restore, a
 * rebalance or an aborted transaction, so they never drift from the stores.
 */
final class DecisionProcessor implements Processor<String, BookingCommand, String, Object> {

    private static final Logger LOG = LoggerFactory.getLogger(DecisionProcessor.class);

    private final BookingDecider decider;
    private final Duration tick;
    private final Duration retention;
    private final DecisionObserver observer;
    private ProcessorContext<String, Object> context;
    private StoreBookingRepository repository;
    private BookingLedger ledger;

    DecisionProcessor(BookingDecider decider, Duration tick, Duration retention, DecisionObserver observer) {
        this.decider = decider;
        this.tick = tick;
        this.retention = retention;
        this.observer = observer;
    }

    @Override
    public void init(ProcessorContext<String, Object> context) {
        this.context = context;
        KeyValueStore<String, Booking> bookings = context.getStateStore(BookingTopology.BOOKING_STORE);
        KeyValueStore<String, IdempotencyEntry> keys = context.getStateStore(BookingTopology.IDEMPOTENCY_STORE);
        KeyValueStore<String, KeptHours> kept = context.getStateStore(BookingTopology.KEPT_STORE);
        repository = new StoreBookingRepository(bookings, keys, kept);
        KeyValueStore<String, WaitlistEntry> waiting = context.getStateStore(BookingTopology.WAITLIST_STORE);
        ledger = new BookingLedger(repository, decider.pools(), new StoreWaitlistRepository(waiting)).rebuild();
        for (BookingLedger.RestoreRefusal refusal : ledger.restoreRefusals()) {
            // Loud: the booking is confirmed but holds no place on its fleet, so its units could be given again.
            LOG.error(
                    "booking {} on flexible pool {} could not be restored at its recorded placement ({}: {}); it"
                            + " holds no place on the fleet until an operator resolves the conflict",
                    refusal.bookingId(),
                    refusal.pool(),
                    refusal.reason(),
                    refusal.message());
            observer.restoreRefused(refusal);
        }
        context.schedule(tick, PunctuationType.WALL_CLOCK_TIME, this::advance);
        context.schedule(
                Duration.ofHours(1),
                PunctuationType.WALL_CLOCK_TIME,
                now -> repository.expire(now - retention.toMillis()));
    }

    @Override
    public void process(Record<String, BookingCommand> record) {
        BookingCommand command = validate(record);
        long started = System.nanoTime();
        Instant now = Instant.ofEpochMilli(context.currentSystemTimeMs());
        Decision decision = decider.decide(command, ledger, now);
        ledger.apply(decision);
        publish(decision, now);
        decider.settleWaitlist(decision, ledger, now).forEach(booked -> publish(booked, now));
        observer.decided(new DecisionOutcome(command.pool(), answerOf(decision), System.nanoTime() - started));
    }

    /** The event answering the command: the first that is not a move made for it. */
    private static BookingEvent answerOf(Decision decision) {
        return decision.events().stream()
                .filter(e -> !(e instanceof BookingEvent.BookingMoved))
                .findFirst()
                .orElseThrow();
    }

    private void advance(long wallClockMillis) {
        Instant now = Instant.ofEpochMilli(wallClockMillis);
        Decision decision = decider.advance(ledger, now);
        if (decision.events().isEmpty()) {
            return;
        }
        ledger.apply(decision);
        publish(decision, now);
    }

    private void publish(Decision decision, Instant now) {
        long timestamp = now.toEpochMilli();
        for (BookingEvent event : decision.events()) {
            context.forward(
                    new Record<String, Object>(event.bookingId(), event, timestamp), BookingTopology.EVENTS_SINK);
        }
        for (Booking booking : decision.changes()) {
            context.forward(
                    new Record<String, Object>(booking.id(), booking, timestamp), BookingTopology.BOOKINGS_SINK);
        }
        for (Notice.ApprovalDecided notice : Approvals.notices(decision)) {
            context.forward(
                    new Record<String, Object>(notice.bookingId(), notice, timestamp),
                    BookingTopology.APPROVAL_NOTICES_SINK);
        }
        for (Notice.BookingAwaitingApproval notice : Approvals.awaiting(decision)) {
            context.forward(
                    new Record<String, Object>(notice.bookingId(), notice, timestamp),
                    BookingTopology.APPROVAL_NOTICES_SINK);
        }
        WaitlistOutputs.forward(context, decision, timestamp);
        for (KeepRequested keep : KeepDecisions.requests(decision)) {
            context.forward(
                    new Record<String, Object>(keep.workload().key(), keep, timestamp),
                    BookingTopology.RECLAIM_KEEPS_SINK);
        }
    }

    private static BookingCommand validate(Record<String, BookingCommand> record) {
        BookingCommand command = record.value();
        String key = record.key();
        if (command == null) {
            throw new InvalidCommandException(key, "empty value");
        }
        if (command.requestId() == null
                || command.caller() == null
                || command.caller().tenant() == null
                || command.bookingId() == null
                || command.pool() == null) {
            throw new InvalidCommandException(key, "requestId, caller.tenant, pool and bookingId are required");
        }
        if (!command.pool().equals(key)) {
            // The key decides which single writer sees the command; a mismatch would bypass it.
            throw new InvalidCommandException(key, "record key must be the pool id " + command.pool());
        }
        // A create without start books from now and one without end gives a duration: the decider checks those.
        if (command instanceof BookingCommand.CreateBooking create && create.namespace() == null) {
            throw new InvalidCommandException(key, "create needs a namespace");
        }
        if (command instanceof BookingCommand.KeepWorkload keep
                && (keep.workload() == null || keep.hours() < 1 || keep.idempotencyKey() != null)) {
            // No idempotency key: a replayed grant would reach idle-reclaimer twice (a keep is not idempotent there).
            throw new InvalidCommandException(key, "keep needs a workload, at least 1 hour and no idempotency key");
        }
        if (command instanceof BookingCommand.ReleaseBooking release && release.reason() == null) {
            throw new InvalidCommandException(key, "release needs a reason");
        }
        return command;
    }
}
