package io.gpuaas.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** The main Java sources of a module of the reactor, read as text with comments removed. */
final class JavaSources {

    private static final Pattern COMMENTS = Pattern.compile("(?s)/\\*.*?\\*/|//[^\\n]*");

    private JavaSources() {}

    record SourceFile(Path path, String code) {
        String fileName() {
            return path.getFileName().toString();
        }
    }

    /** Every {@code .java} file under {@code <module>/src/main/java}; empty when the module has none yet. */
    static List<SourceFile> of(String module) {
        Path root = Rendering.repoRoot().resolve(module).resolve("src/main/java");
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(p -> p.toString().endsWith(".java"))
                    .sorted()
                    .map(p -> new SourceFile(p, withoutComments(read(p))))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String withoutComments(String code) {
        // Good enough for this code base: no string literal contains "//" or "/*" next to API or metric names.
        // Keeps the line breaks of a removed comment so that reported line numbers stay right.
        return COMMENTS.matcher(code).replaceAll(m -> " " + m.group().replaceAll("[^\\n]", ""));
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
