package io.gpuaas.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Files and directories only the stack's user may read: the signing key, the demo tokens, Kafka passwords and the
 * broker's data (which holds every record, and would sidestep the ACLs for any local user who could read it). The
 * mode is given when the file is created, so a secret is never readable by others, not even between create and chmod.
 */
public final class PrivateFiles {

    public static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");
    public static final Set<PosixFilePermission> DIRECTORY = PosixFilePermissions.fromString("rwx------");

    private PrivateFiles() {}

    /** Writes {@code text} to a new file of mode 600 (an older file there is deleted first). */
    public static Path write(Path file, String text) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.deleteIfExists(file);
            Files.createFile(file, attribute(FILE));
            return Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /**
     * A directory of mode 700: created so, or, left by an earlier run of an older stack with a wider mode, narrowed
     * before anything new is written into it.
     */
    public static Path directory(Path dir) {
        try {
            Files.createDirectories(dir.toAbsolutePath().getParent());
            if (Files.notExists(dir)) {
                return Files.createDirectory(dir, attribute(DIRECTORY));
            }
            return Files.setPosixFilePermissions(dir, DIRECTORY);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir, e);
        }
    }

    private static FileAttribute<Set<PosixFilePermission>> attribute(Set<PosixFilePermission> permissions) {
        return PosixFilePermissions.asFileAttribute(permissions);
    }
}
