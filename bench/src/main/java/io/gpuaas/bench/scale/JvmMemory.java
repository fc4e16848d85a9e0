package io.gpuaas.bench.scale;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A JVM's memory as an operator sizes it: heap in use right after a full GC ({@code jcmd <pid> GC.run}, then
 * {@code GC.heap_info}) — what the data it holds costs — and the resident set from {@code /proc/<pid>/status}.
 */
final class JvmMemory {

    /** One JVM of the stack, by role. */
    record Usage(String name, long pid, double heapUsedAfterGcMib, double rssMib) {}

    /** Each heap space's "total …K, used …K" line: DefNew/Tenured (Serial, JDK 25), PSYoungGen/ParOldGen, G1's one line. */
    private static final Pattern USED = Pattern.compile("total \\d+K, used (\\d+)K");

    private static final Pattern RSS = Pattern.compile("VmRSS:\\s+(\\d+) kB");

    private JvmMemory() {}

    /** The stack's own JVM (broker, API server, fleet, stand-ins) and each service JVM under it. */
    static List<Usage> measureTree(ProcessHandle stack) throws IOException, InterruptedException {
        List<Usage> out = new ArrayList<>();
        out.add(measure("local-stack-host", stack.pid()));
        for (ProcessHandle child : stack.descendants().toList()) {
            String name = role(commandLine(child.pid()));
            if (name != null) {
                out.add(measure(name, child.pid()));
            }
        }
        return out;
    }

    /** A process's arguments from /proc (ProcessHandle.Info may leave them out for long command lines). */
    static List<String> commandLine(long pid) {
        try {
            byte[] raw = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"));
            return List.of(new String(raw, StandardCharsets.UTF_8).split("\0"));
        } catch (IOException e) {
            return List.of();
        }
    }

    static String role(List<String> args) {
        for (String a : args) {
            switch (a) {
                case "io.gpuaas.booking.BookingServiceApplication":
                    return "booking-service";
                case "io.gpuaas.quota.QuotaProjectorApplication":
                    return "quota-projector";
                case "io.gpuaas.reclaim.IdleReclaimerApplication":
                    return "idle-reclaimer";
                case "io.gpuaas.metrics.MetricsGatewayApplication":
                    return "metrics-gateway";
                default:
                    break;
            }
        }
        return null;
    }

    static Usage measure(String name, long pid) throws IOException, InterruptedException {
        jcmd(pid, "GC.run");
        double heap = heapUsedKib(jcmd(pid, "GC.heap_info")) / 1024.0;
        String status = Files.readString(Path.of("/proc", Long.toString(pid), "status"));
        Matcher rss = RSS.matcher(status);
        return new Usage(name, pid, heap, rss.find() ? Long.parseLong(rss.group(1)) / 1024.0 : Double.NaN);
    }

    /** Sum of the heap spaces' "used" (young + old for Serial/Parallel, the one heap line for G1); not Metaspace. */
    static long heapUsedKib(String heapInfo) {
        Matcher m = USED.matcher(heapInfo);
        long used = 0;
        boolean any = false;
        while (m.find()) {
            used += Long.parseLong(m.group(1));
            any = true;
        }
        if (!any) {
            throw new IllegalStateException("no heap figures in GC.heap_info:\n" + heapInfo);
        }
        return used;
    }

    private static String jcmd(long pid, String command) throws IOException, InterruptedException {
        String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
        Process p = new ProcessBuilder(jcmd, Long.toString(pid), command)
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("jcmd " + pid + " " + command + " failed: " + out);
        }
        return out;
    }
}
