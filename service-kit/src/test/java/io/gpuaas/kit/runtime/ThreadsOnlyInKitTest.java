package io.gpuaas.kit.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * The kit owns every thread. A service's main code starts no thread and builds no executor of its own: its
 * long-running parts are kit components ({@code TopicReplica}, {@code ReconcileLoop}, {@code WorkConsumer},
 * {@code StreamsApplication}, {@code InformerCache}, {@code LeaderSchedule}...), which share one supervision,
 * health and shutdown story. Framework-managed execution ({@code @ExecuteOn}, Micronaut's event loop) is not a
 * thread the service owns and is allowed.
 *
 * <p>Found statically, like deploy/kubernetes' {@code RbacMatchesCodeTest}: the sources of each service with comments
 * and string literals blanked, searched for the ways Java starts a thread or builds a pool.
 */
class ThreadsOnlyInKitTest {

    static final List<String> SERVICES =
            List.of("booking-service", "quota-projector", "idle-reclaimer", "metrics-gateway");

    /** Each way to start a thread or build an executor, by what it looks like in source. */
    static final Pattern THREADS = Pattern.compile(String.join(
            "|",
            "\\bnew\\s+Thread\\s*\\(",
            "\\bThread\\s*\\.\\s*(ofPlatform|ofVirtual|startVirtualThread)\\b",
            "\\bExecutors\\s*\\.",
            "\\bnew\\s+(ScheduledThreadPoolExecutor|ThreadPoolExecutor|ForkJoinPool|Timer)\\s*\\(",
            "\\bForkJoinPool\\s*\\.\\s*commonPool\\b",
            "\\bCompletableFuture\\s*\\.\\s*(runAsync|supplyAsync)\\s*\\([^;]*\\)\\s*;",
            "\\bimplements\\s+[\\w\\s,<>]*\\bThreadFactory\\b",
            "\\.\\s*parallelStream\\s*\\(",
            "\\.\\s*parallel\\s*\\(\\s*\\)"));

    record Hit(String file, int line, String text) {
        @Override
        public String toString() {
            return file + ":" + line + " " + text;
        }
    }

    @ParameterizedTest
    @FieldSource("SERVICES")
    void shouldStartNoThreadAndBuildNoExecutorInServiceCode(String service) {
        Path sources = root().resolve(service).resolve("src/main/java");
        List<Path> files = javaFiles(sources);
        assertThat(files).as("Java sources of %s under %s", service, sources).isNotEmpty();

        List<Hit> hits = new ArrayList<>();
        for (Path file : files) {
            hits.addAll(scan(root().relativize(file).toString(), read(file)));
        }
        assertThat(hits)
                .as("threads or executors %s starts itself (use a service-kit component instead)", service)
                .isEmpty();
    }

    /** The check itself can fail: each way of starting a thread is found, and comments and strings are not. */
    @Test
    void shouldFindEveryWayToStartAThreadButNotOneInACommentOrAString() {
        String source = """
                class Sample {
                    // new Thread(r) in a comment is fine
                    /* Executors.newSingleThreadExecutor() in a block comment too */
                    String s = "Thread.ofVirtual() in a string";
                    void a() { new Thread(this::run, "x").start(); }
                    void b() { Thread.ofPlatform().daemon().start(this::run); }
                    void c() { var e = Executors.newVirtualThreadPerTaskExecutor(); }
                    void d() { Thread.startVirtualThread(this::run); }
                    void e() { new ScheduledThreadPoolExecutor(1); }
                    void f() { CompletableFuture.runAsync(this::run); }
                    final class F implements ThreadFactory {}
                    void g() { list.parallelStream().count(); }
                    void h() { CompletableFuture.runAsync(this::run, executor); }
                }
                """;
        List<Hit> hits = scan("Sample.java", source);
        assertThat(hits).extracting(Hit::line).containsExactly(5, 6, 7, 8, 9, 10, 11, 12, 13);
    }

    static List<Hit> scan(String file, String source) {
        String code = blankCommentsAndStrings(source);
        List<Hit> hits = new ArrayList<>();
        Matcher m = THREADS.matcher(code);
        while (m.find()) {
            int line = 1
                    + (int) code.substring(0, m.start())
                            .chars()
                            .filter(c -> c == '\n')
                            .count();
            hits.add(new Hit(
                    file,
                    line,
                    source.lines().skip(line - 1).findFirst().orElse("").strip()));
        }
        return hits;
    }

    /** Comments and string, text-block and char literals become spaces; line breaks stay, so lines still count. */
    static String blankCommentsAndStrings(String s) {
        StringBuilder out = new StringBuilder(s.length());
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (s.startsWith("//", i)) {
                while (i < s.length() && s.charAt(i) != '\n') {
                    out.append(' ');
                    i++;
                }
            } else if (s.startsWith("/*", i)) {
                int end = s.indexOf("*/", i + 2);
                end = end < 0 ? s.length() : end + 2;
                i = blank(s, i, end, out);
            } else if (s.startsWith("\"\"\"", i)) {
                int end = s.indexOf("\"\"\"", i + 3);
                end = end < 0 ? s.length() : end + 3;
                i = blank(s, i, end, out);
            } else if (c == '"' || c == '\'') {
                int end = i + 1;
                while (end < s.length() && s.charAt(end) != c && s.charAt(end) != '\n') {
                    end += s.charAt(end) == '\\' ? 2 : 1;
                }
                i = blank(s, i, Math.min(end + 1, s.length()), out);
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    private static int blank(String s, int from, int to, StringBuilder out) {
        for (int j = from; j < to; j++) {
            out.append(s.charAt(j) == '\n' ? '\n' : ' ');
        }
        return to;
    }

    /** The repository root: service-kit's tests run with service-kit as the working directory. */
    private static Path root() {
        Path here = Path.of("").toAbsolutePath();
        return Files.isDirectory(here.resolve("service-kit")) ? here : here.getParent();
    }

    private static List<Path> javaFiles(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
