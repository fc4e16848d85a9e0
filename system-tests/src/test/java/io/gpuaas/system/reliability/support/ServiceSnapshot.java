package io.gpuaas.system.reliability.support;

import io.gpuaas.local.services.ServiceSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;

/**
 * A copy of a service module's target/classes and classpath.txt, taken at its first start: other sessions rebuild
 * service modules while the suite runs, and a JVM (re)started during a rebuild fails with NoClassDefFoundError.
 * Every start of every replica then runs the same code.
 */
final class ServiceSnapshot {

    private ServiceSnapshot() {}

    /** The root to start {@code spec} from (a repository-like tree holding {@code <module>/target}). */
    static Path of(ServiceSpec spec, Path repoRoot, Path snapshots) throws IOException {
        Path copy = snapshots.resolve(spec.module()).resolve("target");
        if (Files.isRegularFile(copy.resolve("classpath.txt"))) {
            return snapshots;
        }
        Path source = repoRoot.resolve(spec.module()).resolve("target");
        for (int attempt = 1; ; attempt++) {
            deleteTree(copy);
            try {
                copyTree(source.resolve("classes"), copy.resolve("classes"));
                Path main = copy.resolve("classes").resolve(spec.mainClass().replace('.', '/') + ".class");
                // A build that wrote into classes in the last 15 s may still be writing: take the copy later.
                boolean settled = newest(source.resolve("classes")) < System.currentTimeMillis() - 15_000;
                if (Files.isRegularFile(main) && settled) {
                    Files.copy(source.resolve("classpath.txt"), copy.resolve("classpath.txt"));
                    return snapshots;
                }
            } catch (IOException midRebuild) {
                if (attempt >= 12) {
                    throw midRebuild;
                }
            }
            if (attempt >= 12) {
                throw new IllegalStateException(spec.module() + "/target/classes has no " + spec.mainClass()
                        + " or keeps changing (a build in progress?)");
            }
            try {
                Thread.sleep(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(e);
            }
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (var tree = Files.walk(from)) {
            for (Path p : tree.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
    }

    private static long newest(Path dir) throws IOException {
        try (var tree = Files.walk(dir)) {
            long newest = 0;
            for (Path p : tree.toList()) {
                newest = Math.max(newest, Files.getLastModifiedTime(p).toMillis());
            }
            return newest;
        }
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var tree = Files.walk(dir)) {
            for (Path p : tree.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
