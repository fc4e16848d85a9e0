package io.gpuaas.booking.stream;

import io.gpuaas.booking.budget.BudgetDecider;
import io.gpuaas.booking.budget.BudgetDecision;
import io.gpuaas.booking.budget.TenantLedger;
import io.gpuaas.booking.budget.TenantSummary;
import io.gpuaas.events.budget.BudgetCommand;
import io.gpuaas.events.budget.TenantBudget;
import io.gpuaas.events.notice.Notice;
import java.time.Instant;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The one writer of the tenants in one partition of {@code budget-commands}: decides each command against the
 * tenant's state ({@link BudgetDecider}, pure, on the record's time, over a {@link StoreLedger}: the tenant's summary
 * and the few items the command concerns) and, in the same transaction, stores what changed and forwards the request, the refusal, the month states and the threshold notices. A notice's threshold is recorded
 * in the summary it is sent with, so across a crash both happened or neither: each is sent once.
 */
final class BudgetProcessor implements Processor<String, BudgetCommand, String, Object> {

    private final BudgetDecider decider;
    private ProcessorContext<String, Object> context;
    private KeyValueStore<String, TenantSummary> summaries;
    private KeyValueStore<String, BudgetItem> items;
    private KeyValueStore<String, TenantLedger> legacy;

    BudgetProcessor(BudgetDecider decider) {
        this.decider = decider;
    }

    @Override
    public void init(ProcessorContext<String, Object> context) {
        this.context = context;
        this.summaries = context.getStateStore(BudgetTopology.SUMMARY_STORE);
        this.items = context.getStateStore(BudgetTopology.ITEM_STORE);
        this.legacy = context.getStateStore(BudgetTopology.STORE);
    }

    @Override
    public void process(Record<String, BudgetCommand> record) {
        BudgetCommand command = record.value();
        if (command == null || command.tenant() == null || !command.tenant().equals(record.key())) {
            // The key decides which single writer sees the tenant; a mismatch would bypass it.
            throw new InvalidCommandException(record.key(), "record key must be the command's tenant");
        }
        Instant now = Instant.ofEpochMilli(record.timestamp());
        StoreLedger ledger = StoreLedger.load(command.tenant(), summaries, items, legacy);
        BudgetDecision decision = decider.decide(command, ledger, now);
        ledger.flush();
        long timestamp = record.timestamp();
        if (decision.forward() != null) {
            context.forward(
                    new Record<String, Object>(decision.forward().pool(), decision.forward(), timestamp),
                    BudgetTopology.FORWARD_SINK);
        }
        if (decision.refusal() != null) {
            context.forward(
                    new Record<String, Object>(decision.refusal().bookingId(), decision.refusal(), timestamp),
                    BudgetTopology.REFUSAL_SINK);
        }
        for (TenantBudget state : decision.states()) {
            context.forward(
                    new Record<String, Object>(TenantBudget.key(state.tenant(), state.month()), state, timestamp),
                    BudgetTopology.STATE_SINK);
        }
        for (Notice.BudgetThresholdReached notice : decision.notices()) {
            context.forward(
                    new Record<String, Object>(TenantBudget.key(notice.tenant(), notice.month()), notice, timestamp),
                    BudgetTopology.NOTICE_SINK);
        }
    }
}
