package io.gpuaas.booking.stream;

import io.gpuaas.booking.budget.BudgetOutcomes;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.budget.BudgetCommand;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/** Re-keys the booking events by tenant for the budget stage ({@link BudgetOutcomes}); stateless. */
final class BudgetOutcomeProcessor implements Processor<String, BookingEvent, String, BudgetCommand> {

    private ProcessorContext<String, BudgetCommand> context;

    @Override
    public void init(ProcessorContext<String, BudgetCommand> context) {
        this.context = context;
    }

    @Override
    public void process(Record<String, BookingEvent> record) {
        if (record.value() == null) {
            return;
        }
        BudgetOutcomes.of(record.value())
                .ifPresent(outcome -> context.forward(
                        new Record<String, BudgetCommand>(outcome.tenant(), outcome, record.timestamp())));
    }
}
