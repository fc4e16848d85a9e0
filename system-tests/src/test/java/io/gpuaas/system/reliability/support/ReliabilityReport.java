package io.gpuaas.system.reliability.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * The table of what was tried and what held. Every check adds its row as it finishes (held or not), and the whole
 * file is rewritten each time, so a run that dies half-way still leaves the rows it reached.
 */
public final class ReliabilityReport {

    /** One line of the table. */
    public record Row(String area, String tried, String expected, boolean held, String observed) {}

    private static final List<Row> ROWS = new ArrayList<>();
    private static final Instant STARTED = Instant.now();

    private ReliabilityReport() {}

    public static synchronized void add(String area, String tried, String expected, boolean held, String observed) {
        ROWS.add(new Row(area, tried, expected, held, observed));
        write();
    }

    public static Path file() {
        return Path.of(System.getProperty("gpuaas.reliability.report", "target/reliability/reliability.md"));
    }

    private static void write() {
        StringBuilder md = new StringBuilder();
        long held = ROWS.stream().filter(Row::held).count();
        md.append("## Reliability suite\n\n");
        md.append("Mode **")
                .append(Mode.name())
                .append("**, run started ")
                .append(STARTED.truncatedTo(ChronoUnit.SECONDS))
                .append(", on this machine (")
                .append(Runtime.getRuntime().availableProcessors())
                .append(" cores, shared). ")
                .append(held)
                .append(" of ")
                .append(ROWS.size())
                .append(" checks held.\n\n");
        md.append("Reproduce: `bench/reliability` (full) or `./mvnw -B -o -pl system-tests verify "
                + "-Dit.test='*Reliability*IT'` (bounded). How each fault is made: system-tests/README.md, "
                + "\"Reliability suite\".\n\n");
        md.append("| area | what was tried | what must hold | held | observed |\n|---|---|---|---|---|\n");
        for (Row row : ROWS) {
            md.append("| ")
                    .append(cell(row.area()))
                    .append(" | ")
                    .append(cell(row.tried()))
                    .append(" | ")
                    .append(cell(row.expected()))
                    .append(" | ")
                    .append(row.held() ? "yes" : "**NO**")
                    .append(" | ")
                    .append(cell(row.observed()))
                    .append(" |\n");
        }
        try {
            Path file = file().toAbsolutePath();
            Files.createDirectories(file.getParent());
            Files.writeString(file, md);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String cell(String text) {
        String flat = text.replace("|", "\\|").replace("\n", " ");
        return flat.length() > 400 ? flat.substring(0, 400) + "…" : flat;
    }
}
