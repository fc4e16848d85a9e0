package io.gpuaas.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class BenchOptionsTest {

    @Test
    void shouldReadTypedValuesAndFallBackToTheDefaultsWhenOptionsAreGivenOrLeftOut() {
        BenchOptions opts = BenchOptions.of(
                "--rate", "750", "--fill", "0.5", "--out", "/tmp/x.md", "--latency-only", "--grace-ms", "2500");

        assertThat(opts.integer("rate", 500)).isEqualTo(750);
        assertThat(opts.integer("runs", 3)).isEqualTo(3);
        assertThat(opts.decimal("fill", 0.7)).isEqualTo(0.5);
        assertThat(opts.longInteger("grace-ms", 2000)).isEqualTo(2500L);
        assertThat(opts.path("out", "bench/results/x.md")).isEqualTo(Path.of("/tmp/x.md"));
        assertThat(opts.flag("latency-only", false)).isTrue();
        assertThat(opts.flag("profiles", true)).isTrue();
        assertThat(opts.text("csv")).isEmpty();
        assertThat(opts.has("fill")).isTrue();
        assertThat(opts.arguments())
                .isEqualTo(" --rate 750 --fill 0.5 --out /tmp/x.md --latency-only true --grace-ms 2500");
    }

    @Test
    void shouldNameTheOptionWhenAValueIsNotWhatItMustBe() {
        BenchOptions opts = BenchOptions.of("--rate", "fast", "--busy", "yes");

        assertThatThrownBy(() -> opts.integer("rate", 500)).hasMessage("--rate must be a whole number, not fast");
        assertThatThrownBy(() -> opts.flag("busy", true)).hasMessage("--busy must be true or false, not yes");
    }

    @Test
    void shouldRefuseAWordWhereAnOptionBelongsWhenTheLineIsMalformed() {
        assertThatThrownBy(() -> BenchOptions.of("400000", "1250"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("expected --option, not 400000");
        assertThatThrownBy(() -> BenchOptions.of("--rate", "1", "2")).hasMessage("expected --option, not 2");
    }
}
