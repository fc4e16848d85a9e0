package io.gpuaas.reclaim.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class IdlenessWindowTest {

    private static final double THRESHOLD = 0.05;
    private static final int SLOTS = 10;
    private static final int REQUIRED = 9;

    private final IdlenessWindow window = new IdlenessWindow(1_000, SLOTS);

    private void feed(long fromSecond, long toSecondInclusive, Double utilization) {
        for (long s = fromSecond; s <= toSecondInclusive; s++) {
            window.record(s * 1_000, utilization, false, THRESHOLD);
        }
    }

    @Test
    void shouldBeIdleWhenEverySampleOfAFullWindowIsAtOrUnderThreshold() {
        feed(0, 9, 0.05);

        DeviceVerdict verdict = window.verdictAt(9_000, 0, REQUIRED);

        assertThat(verdict.reason()).isEqualTo(DeviceVerdict.Reason.IDLE);
        assertThat(verdict.coverage()).isEqualTo(1.0);
        assertThat(verdict.maxUtilization()).isEqualTo(0.05);
    }

    @Test
    void shouldNotBeIdleBeforeAWholeWindowOfSamplesArrived() {
        feed(0, 7, 0.0);

        assertThat(window.verdictAt(7_000, 0, REQUIRED).reason()).isEqualTo(DeviceVerdict.Reason.LOW_COVERAGE);
    }

    @Test
    void shouldRestartTheWindowWhenOneBusySampleArrives() {
        feed(0, 9, 0.0);
        window.record(10_000, 0.5, false, THRESHOLD);
        feed(11, 19, 0.0);

        assertThat(window.verdictAt(19_000, 0, REQUIRED).reason()).isEqualTo(DeviceVerdict.Reason.BUSY);
        feed(20, 20, 0.0);
        assertThat(window.verdictAt(20_000, 0, REQUIRED).reason()).isEqualTo(DeviceVerdict.Reason.IDLE);
    }

    @Test
    void shouldTreatASampleWithoutValueAsBusy() {
        feed(0, 4, 0.0);
        window.record(5_000, null, false, THRESHOLD);
        feed(6, 9, 0.0);

        assertThat(window.verdictAt(9_000, 0, REQUIRED).reason()).isEqualTo(DeviceVerdict.Reason.BUSY);
    }

    @Test
    void shouldToleratePerhapsOneMissingSampleButNotTwo() {
        feed(0, 3, 0.0);
        feed(5, 9, 0.0);
        assertThat(window.verdictAt(9_000, 0, REQUIRED).reason()).isEqualTo(DeviceVerdict.Reason.IDLE);

        IdlenessWindow gappy = new IdlenessWindow(1_000, SLOTS);
        for (long s : new long[] {0, 1, 2, 5, 6, 7, 8, 9}) {
            gappy.record(s * 1_000, 0.0, false, THRESHOLD);
        }
        assertThat(gappy.verdictAt(9_000, 0, REQUIRED).reason()).isEqualTo(DeviceVerdict.Reason.LOW_COVERAGE);
    }

    @Test
    void shouldNotBeIdleWhenTheDeviceWentStale() {
        feed(0, 9, 0.0);

        DeviceVerdict later = window.verdictAt(12_000, 0, REQUIRED);

        assertThat(later.reason()).isEqualTo(DeviceVerdict.Reason.LOW_COVERAGE);
        assertThat(later.samples()).isEqualTo(7);
    }

    @Test
    void shouldNotCountSamplesInsideTheWarmUpGrace() {
        feed(0, 14, 0.0);

        assertThat(window.verdictAt(14_000, 6_000, REQUIRED).reason()).isEqualTo(DeviceVerdict.Reason.WARM_UP);
        feed(15, 15, 0.0);
        assertThat(window.verdictAt(15_000, 6_000, REQUIRED).reason()).isEqualTo(DeviceVerdict.Reason.IDLE);
    }

    @Test
    void shouldCountALateBusySampleInsideTheWindow() {
        feed(0, 9, 0.0);
        window.record(4_500, 0.9, false, THRESHOLD);

        assertThat(window.verdictAt(9_000, 0, REQUIRED).reason()).isEqualTo(DeviceVerdict.Reason.BUSY);
    }

    @Test
    void shouldReportHowLongTheDeviceHasBeenIdle() {
        window.record(0, 0.7, false, THRESHOLD);
        feed(1, 30, 0.01);

        DeviceVerdict verdict = window.verdictAt(30_000, 0, REQUIRED);

        assertThat(verdict.idle()).isTrue();
        assertThat(verdict.idleMillis()).isEqualTo(29_000);
        assertThat(verdict.windowStart()).isEqualTo(21_000);
    }

    @Test
    void shouldCountCoverageLikeAPlainSetWhenSamplesArriveOutOfOrderAcrossTheRing() {
        for (int slots : new int[] {10, 64, 130, 900}) {
            java.util.Random random = new java.util.Random(slots);
            IdlenessWindow ring = new IdlenessWindow(1_000, slots);
            java.util.TreeSet<Long> kept = new java.util.TreeSet<>();
            long head = Long.MIN_VALUE;
            for (int i = 0; i < 5_000; i++) {
                // Mostly forward, sometimes late, sometimes a jump: the paths a real feed takes.
                long base = head == Long.MIN_VALUE ? 0 : head;
                long slot = base
                        + switch (random.nextInt(10)) {
                            case 0 -> -random.nextInt(slots + 5);
                            case 1 -> random.nextInt(2 * slots);
                            default -> random.nextInt(3);
                        };
                head = Math.max(head, slot);
                if (slot > head - slots) {
                    kept.add(slot);
                }
                ring.record(slot * 1_000, 0.0, false, THRESHOLD);
                long now = head - random.nextInt(slots + 2);
                long top = Math.max(head, now);
                long expected = now < top - slots + 1
                        ? 0
                        : kept.subSet(top - slots + 1, true, now, true).size();

                assertThat(ring.verdictAt(now * 1_000, 0, slots).samples())
                        .as("slots %d step %d", slots, i)
                        .isEqualTo((int) expected);
                head = top;
                kept.headSet(head - slots + 1).clear();
            }
        }
    }
}
