package io.gpuaas.bench.dashboard;

import io.gpuaas.bench.BenchOptions;
import io.gpuaas.testing.browser.HeadlessChromium;
import io.gpuaas.testing.kafka.EmbeddedKafka;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The dashboard overview's draw time in Debian's headless Chromium: booking-service started on an embedded broker
 * with authentication and its own ACLs, a realistic book seeded through the API (bookings across every
 * pool over the coming days from several tenants), then the signed-in page loaded again and again. Run from the
 * repository root: booking-service runs in a JVM of its own from its built module. The figure is the
 * page's own {@code performance.measure('overview-drawn')}: from navigation start until the pools, the heatmap, the
 * tenant's bookings and the calendar are drawn from the API's answers.
 *
 * <p>Usage: {@code DashboardBench [--bookings 200] [--tenants 5] [--warmups 3] [--loads 15] [--out FILE]
 * [--service-log FILE]}. Without
 * Chromium and chromedriver it says so ({@code PROBLEM} line) and measures nothing.
 */
public final class DashboardBench {

    private DashboardBench() {}

    /** What the run measured: the draw time of each measured load, in milliseconds. */
    record Result(int bookings, int tenants, int warmups, List<Double> drawnMillis) {

        double quantile(double q) {
            double[] sorted = drawnMillis.stream()
                    .mapToDouble(Double::doubleValue)
                    .sorted()
                    .toArray();
            // Nearest rank: the smallest value with at least q of the loads at or below it.
            int rank = (int) Math.ceil(q * sorted.length);
            return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
        }

        double min() {
            return drawnMillis.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
        }

        double max() {
            return drawnMillis.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
        }
    }

    public static void main(String[] args) throws Exception {
        BenchOptions opts = BenchOptions.of(args);
        int bookings = opts.integer("bookings", 200);
        int tenants = opts.integer("tenants", 5);
        int warmups = opts.integer("warmups", 3);
        int loads = opts.integer("loads", 15);
        Path out = opts.path("out", "bench/target/suite/dashboard.md");
        Path serviceLog = opts.path("service-log", "bench/target/suite/logs/dashboard-booking-service.log");
        if (!HeadlessChromium.available()) {
            String why = "dashboard: skipped, nothing measured: " + HeadlessChromium.NOT_INSTALLED;
            System.out.println(why);
            System.out.println("PROBLEM " + why);
            write(out, "Not measured in this run: " + HeadlessChromium.NOT_INSTALLED + ".\n");
            System.exit(0);
        }
        Result result;
        try (EmbeddedKafka broker = EmbeddedKafka.start();
                BookingServiceUnderTest service = BookingServiceUnderTest.start(
                        broker, tenants, Path.of("").toAbsolutePath(), serviceLog)) {
            int seeded = service.seed(bookings);
            System.out.printf(Locale.ROOT, "dashboard: %d bookings seeded from %d tenants%n", seeded, tenants);
            try (OverviewPage page = OverviewPage.open(service.uri(), service.token(0))) {
                List<Double> drawn = new ArrayList<>();
                for (int i = 0; i < warmups + loads; i++) {
                    double millis = page.reloadAndMeasure();
                    System.out.printf(
                            Locale.ROOT,
                            "dashboard: load %d%s: overview drawn %.0f ms after navigation start%n",
                            i + 1,
                            i < warmups ? " (warm-up, discarded)" : "",
                            millis);
                    if (i >= warmups) {
                        drawn.add(millis);
                    }
                }
                result = new Result(seeded, tenants, warmups, drawn);
            }
        }
        String report = report(result);
        System.out.println(report);
        write(out, report);
        printResults(result);
        // Streams, Netty and the broker leave non-daemon threads behind: the figures are out, end the JVM.
        System.exit(0);
    }

    static String report(Result r) {
        return String.format(
                Locale.ROOT,
                """
                The signed-in overview (pools, the heatmap of every pool over the coming days, the tenant's \
                bookings, the calendar) in headless Chromium, reloaded %d times after %d discarded warm-ups; \
                booking-service in a JVM of its own on the bench's embedded broker with authentication and ACLs, \
                %d bookings of %d tenants across every pool. `overview-drawn` is the page's own \
                `performance.measure`, from navigation start.

                | overview drawn | median ms | p90 ms | min ms | max ms | loads |
                |---|---|---|---|---|---|
                | signed-in page load | %.0f | %.0f | %.0f | %.0f | %d |

                Reproduce: `bench/run --only dashboard --no-reliability --out /tmp/bench-dashboard`
                """,
                r.drawnMillis().size(),
                r.warmups(),
                r.bookings(),
                r.tenants(),
                r.quantile(0.5),
                r.quantile(0.9),
                r.min(),
                r.max(),
                r.drawnMillis().size());
    }

    private static void printResults(Result r) {
        System.out.printf(Locale.ROOT, "RESULT dashboard.overview_drawn_p50_ms %.1f ms%n", r.quantile(0.5));
        System.out.printf(Locale.ROOT, "RESULT dashboard.overview_drawn_p90_ms %.1f ms%n", r.quantile(0.9));
        System.out.printf(Locale.ROOT, "RESULT dashboard.overview_drawn_min_ms %.1f ms%n", r.min());
        System.out.printf(Locale.ROOT, "RESULT dashboard.overview_drawn_max_ms %.1f ms%n", r.max());
        System.out.printf(Locale.ROOT, "RESULT dashboard.bookings %d bookings%n", r.bookings());
    }

    private static void write(Path out, String text) throws IOException {
        if (out.toAbsolutePath().getParent() != null) {
            Files.createDirectories(out.toAbsolutePath().getParent());
        }
        Files.writeString(out, text);
    }
}
