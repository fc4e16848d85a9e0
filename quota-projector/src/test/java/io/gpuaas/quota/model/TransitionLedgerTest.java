package io.gpuaas.quota.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.workload.WorkloadEvent.Condition;
import io.gpuaas.events.workload.WorkloadEvent.WorkloadDeleted;
import io.gpuaas.events.workload.WorkloadEvent.WorkloadObserved;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TransitionLedgerTest {

    private static final Instant T1 = Instant.parse("2026-11-22T12:00:00Z");
    private static final Condition RESERVED = new Condition("QuotaReserved", "True", "QuotaReserved", "", T1);
    private static final Condition ADMITTED = new Condition("Admitted", "True", "Admitted", "", T1.plusSeconds(1));
    private static final Condition EVICTED = new Condition("Evicted", "True", "Preempted", "", T1.plusSeconds(9));

    @Test
    void shouldClaimEachTransitionOnceWhenTheSameConditionsAreSeenAgain() {
        TransitionLedger ledger = new TransitionLedger();

        assertThat(ledger.claimNew("ns/w", "u1", List.of(RESERVED))).containsExactly(RESERVED);
        assertThat(ledger.claimNew("ns/w", "u1", List.of(ADMITTED, RESERVED))).containsExactly(ADMITTED);
        assertThat(ledger.claimNew("ns/w", "u1", List.of(ADMITTED, RESERVED))).isEmpty();
        assertThat(ledger.claimNew("ns/w", "u1", List.of(RESERVED, ADMITTED, EVICTED)))
                .containsExactly(EVICTED);
    }

    @Test
    void shouldTreatEverythingAsNewWhenWorkloadIsRecreatedUnderTheSameName() {
        TransitionLedger ledger = new TransitionLedger();
        ledger.claimNew("ns/w", "u1", List.of(RESERVED));

        assertThat(ledger.claimNew("ns/w", "u2", List.of(RESERVED))).containsExactly(RESERVED);
    }

    @Test
    void shouldPublishNothingTwiceWhenRestoredFromTheTopic() {
        TransitionLedger ledger = new TransitionLedger();
        ledger.restore("ns/w", observed("u1", ADMITTED, List.of(RESERVED, ADMITTED)));
        ledger.restore("ns/gone", observed("u9", RESERVED, List.of(RESERVED)));
        ledger.restore("ns/gone", new WorkloadDeleted("ns", "gone", "u9", "gpuaas", null, T1));

        assertThat(ledger.claimNew("ns/w", "u1", List.of(RESERVED, ADMITTED))).isEmpty();
        assertThat(ledger.known()).containsOnlyKeys("ns/w");
    }

    @Test
    void shouldRetryTransitionWhenItsRecordCouldNotBeWritten() {
        TransitionLedger ledger = new TransitionLedger();
        ledger.claimNew("ns/w", "u1", List.of(RESERVED));
        ledger.release("ns/w", "u1", RESERVED);

        assertThat(ledger.claimNew("ns/w", "u1", List.of(RESERVED))).containsExactly(RESERVED);
    }

    private static WorkloadObserved observed(String uid, Condition transition, List<Condition> conditions) {
        return new WorkloadObserved(
                "ns",
                "w",
                uid,
                "1",
                "gpuaas",
                null,
                null,
                null,
                true,
                transition,
                conditions,
                List.of(),
                List.of(),
                null,
                T1);
    }
}
