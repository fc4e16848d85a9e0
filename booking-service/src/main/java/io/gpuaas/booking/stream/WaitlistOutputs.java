package io.gpuaas.booking.stream;

import io.gpuaas.booking.model.Decision;
import io.gpuaas.booking.model.WaitlistNotices;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.notice.Notice;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * What a decision's waitlist events put on the other topics, in the decision's transaction: each entry's new state on
 * {@code gpuaas.waitlist} (the API's view of it) and the notices ({@code WaitlistBooked}, {@code WaitlistExpired}) on
 * {@code gpuaas.notices}, so each is there exactly once for {@code read_committed} readers.
 */
final class WaitlistOutputs {

    private WaitlistOutputs() {}

    static void forward(ProcessorContext<String, Object> context, Decision decision, long timestamp) {
        for (BookingEvent event : decision.events()) {
            switch (event) {
                case BookingEvent.BookingWaitlisted w ->
                    entry(context, w.entry().id(), w.entry(), timestamp);
                case BookingEvent.WaitlistEnded e -> entry(context, e.entry().id(), e.entry(), timestamp);
                default -> {}
            }
        }
        for (Notice notice : WaitlistNotices.of(decision.events())) {
            context.forward(
                    new Record<String, Object>(WaitlistNotices.key(notice), notice, timestamp),
                    BookingTopology.NOTICES_SINK);
        }
    }

    private static void entry(ProcessorContext<String, Object> context, String id, Object entry, long timestamp) {
        context.forward(new Record<>(id, entry, timestamp), BookingTopology.WAITLIST_SINK);
    }
}
