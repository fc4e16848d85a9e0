package io.gpuaas.booking.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RecurrenceRuleTest {

    @Test
    void shouldReadAWeeklyRuleWhenItNamesDaysAndACount() {
        RecurrenceRule rule = RecurrenceRule.parse("RRULE:freq=weekly;BYDAY=WE,MO;COUNT=6;INTERVAL=2");

        assertThat(rule.frequency()).isEqualTo(RecurrenceRule.Frequency.WEEKLY);
        assertThat(rule.days()).isEqualTo(Set.of(DayOfWeek.MONDAY, DayOfWeek.WEDNESDAY));
        assertThat(rule.count()).isEqualTo(6);
        assertThat(rule.interval()).isEqualTo(2);
        assertThat(rule.untilDate()).isNull();
    }

    @Test
    void shouldReadUntilAsADateOrAUtcInstantWhenGivenEitherForm() {
        assertThat(RecurrenceRule.parse("FREQ=DAILY;UNTIL=20300115").untilDate())
                .isEqualTo(LocalDate.of(2030, 1, 15));
        assertThat(RecurrenceRule.parse("FREQ=DAILY;UNTIL=20300115T093000Z").untilInstant())
                .isEqualTo(Instant.parse("2030-01-15T09:30:00Z"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "FREQ=DAILY|exactly one of COUNT and UNTIL",
                "FREQ=DAILY;COUNT=3;UNTIL=20300101|exactly one of COUNT and UNTIL",
                "FREQ=MONTHLY;COUNT=3|FREQ must be DAILY or WEEKLY",
                "COUNT=3|FREQ is required",
                "FREQ=DAILY;BYDAY=MO;COUNT=3|BYDAY is for FREQ=WEEKLY only",
                "FREQ=WEEKLY;BYDAY=1MO;COUNT=3|BYDAY takes MO",
                "FREQ=WEEKLY;BYDAY=MO,MO;COUNT=3|names MO twice",
                "FREQ=DAILY;COUNT=0|COUNT must be between 1 and 100",
                "FREQ=DAILY;COUNT=101|COUNT must be between 1 and 100",
                "FREQ=DAILY;COUNT=-1|COUNT must be a small whole number",
                "FREQ=DAILY;COUNT=99999999999|COUNT must be a small whole number",
                "FREQ=DAILY;INTERVAL=0;COUNT=2|INTERVAL must be between 1 and 52",
                "FREQ=DAILY;COUNT=2;BYHOUR=9|unsupported part BYHOUR",
                "FREQ=DAILY;FREQ=DAILY;COUNT=2|FREQ is given twice",
                "FREQ=DAILY;;COUNT=2|is not NAME=VALUE",
                "FREQ=DAILY;UNTIL=20300115T093000|must be in UTC",
                "FREQ=DAILY;UNTIL=2030-01-15|UNTIL must be YYYYMMDD",
                "FREQ=DAILY;UNTIL=20301345|UNTIL must be YYYYMMDD",
            })
    void shouldRefuseWithTheRuleWhenTheTextBreaksIt(String text, String message) {
        assertThatThrownBy(() -> RecurrenceRule.parse(text))
                .isInstanceOf(RecurrenceRule.InvalidRecurrence.class)
                .hasMessageContaining(message);
    }

    @Test
    void shouldRefuseWhenTheRuleIsEmptyOrTooLong() {
        assertThatThrownBy(() -> RecurrenceRule.parse(" ")).hasMessageContaining("a rule is required");
        assertThatThrownBy(() -> RecurrenceRule.parse("FREQ=DAILY;COUNT=2;" + "X".repeat(300)))
                .hasMessageContaining("longer than 256");
    }
}
