package io.gpuaas.bench.suite;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SectionsTest {

    @Test
    void shouldKeepTablesAndDropLogLinesWhenFilteringABenchOutput() {
        String out = """
                15:05:26.526 WARN  [main] kafka.server - something
                fleet: 125 nodes, 1000 GPUs
                | a | b |
                |---|---|
                | 1 | 2 |
                Exception in thread "main" java.lang.IllegalStateException: boom
                \tat io.gpuaas.X.main(X.java:1)
                """;

        assertThat(Sections.filter(out)).isEqualTo("fleet: 125 nodes, 1000 GPUs\n| a | b |\n|---|---|\n| 1 | 2 |");
    }

    @Test
    void shouldDemoteHeadingsButNotCodeWhenIncludingAReport() {
        assertThat(Sections.demote("## a\ntext\n```\n# not a heading\n```\n### b"))
                .isEqualTo("#### a\ntext\n```\n# not a heading\n```\n##### b");
    }
}
