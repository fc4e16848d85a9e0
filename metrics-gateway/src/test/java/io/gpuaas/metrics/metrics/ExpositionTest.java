package io.gpuaas.metrics.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ExpositionTest {

    @Test
    void shouldEscapeLabelValuesAndHelpWhenTheyHoldQuotesBackslashesAndNewlines() {
        Exposition out = new Exposition(false, 1);
        out.gauge("x_ratio", "a \\ b\nc \"d\"", "name").add(0.5, "a\"b\\c\nd");

        assertThat(text(out)).isEqualTo("""
                # HELP x_ratio a \\\\ b\\nc "d"
                # TYPE x_ratio gauge
                x_ratio{name="a\\"b\\\\c\\nd"} 0.5
                """);
    }

    @Test
    void shouldNameCountersAsEachFormatRequiresWhenWritingTextOrOpenMetrics() {
        Exposition text = new Exposition(false, 1);
        text.counter("jobs", "Jobs").add(3);
        Exposition open = new Exposition(true, 1);
        open.counter("jobs", "Jobs").add(3);

        assertThat(text(text)).contains("# TYPE jobs_total counter\njobs_total 3.0\n");
        assertThat(text(open)).contains("# TYPE jobs counter\njobs_total 3.0\n").endsWith("# EOF\n");
    }

    @Test
    void shouldWriteSpecialValuesWhenTheyAreNotFinite() {
        Exposition out = new Exposition(false, 3);
        out.gauge("v", "v", "k")
                .add(Double.NaN, "a")
                .add(Double.POSITIVE_INFINITY, "b")
                .add(1e20, "c");

        assertThat(text(out)).contains("v{k=\"a\"} NaN", "v{k=\"b\"} +Inf", "v{k=\"c\"} 1.0E20");
        assertThat(out.series()).isEqualTo(3);
    }

    @Test
    void shouldRejectAFamilyWhenALabelNameIsInvalid() {
        assertThatThrownBy(() -> new Exposition(false, 1).gauge("v", "v", "bad-label"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static String text(Exposition out) {
        return new String(out.toBytes(), StandardCharsets.UTF_8);
    }
}
