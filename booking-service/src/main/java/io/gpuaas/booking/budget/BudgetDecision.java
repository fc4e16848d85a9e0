package io.gpuaas.booking.budget;

import io.gpuaas.events.booking.BookingCommand;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.budget.TenantBudget;
import io.gpuaas.events.notice.Notice;
import java.util.List;

/**
 * What the budget stage decided for one command: the tenant's ledger after it, and what to write in the same
 * exactly-once step.
 *
 * @param ledger  the tenant's ledger after the command when it was decided over a whole {@link TenantLedger}; null
 *                when decided over a {@link LedgerAccess} (the state is there)
 * @param forward the request passed on to its pool's decision engine, or null
 * @param refusal the request's refusal ({@code BUDGET_EXCEEDED}) for {@code booking-events}, or null
 * @param states  the new state of each month whose figures changed and that has a budget
 * @param notices thresholds reached for the first time
 */
public record BudgetDecision(
        TenantLedger ledger,
        BookingCommand forward,
        BookingEvent.BookingRejected refusal,
        List<TenantBudget> states,
        List<Notice.BudgetThresholdReached> notices) {

    public BudgetDecision {
        states = List.copyOf(states);
        notices = List.copyOf(notices);
    }

    /** This decision carrying {@code after} as the ledger after the command. */
    BudgetDecision withLedger(TenantLedger after) {
        return new BudgetDecision(after, forward, refusal, states, notices);
    }
}
