package io.gpuaas.testing.net;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The TCP sockets a process listens on, read from Linux's {@code /proc} (no {@code ss} or {@code netstat} needed):
 * the inodes of the process's socket descriptors, matched against the LISTEN rows of {@code /proc/net/tcp} and
 * {@code tcp6}. For tests that check what a process exposes, e.g. that the local stack binds only loopback.
 */
public final class ListeningSockets {

    private static final String LISTEN = "0A";

    private ListeningSockets() {}

    /** Every address {@code pid} listens on; empty when the process is gone. */
    public static List<InetSocketAddress> of(long pid) {
        Set<String> inodes = socketInodes(pid);
        List<InetSocketAddress> listening = new ArrayList<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            try {
                for (String line :
                        Files.readAllLines(Path.of(table)).stream().skip(1).toList()) {
                    String[] f = line.trim().split("\\s+");
                    if (f.length > 9 && LISTEN.equals(f[3]) && inodes.contains(f[9])) {
                        listening.add(address(f[1]));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + table, e);
            }
        }
        return listening;
    }

    private static Set<String> socketInodes(long pid) {
        Set<String> inodes = new HashSet<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring(8, target.length() - 1));
                    }
                } catch (IOException closedMeanwhile) {
                    // the descriptor was closed while listing
                }
            }
        } catch (IOException gone) {
            return Set.of();
        }
        return inodes;
    }

    /** {@code 0100007F:1F90}: the address in 32-bit words of host (little-endian) order, the port big-endian. */
    static InetSocketAddress address(String hex) {
        String[] parts = hex.split(":");
        String words = parts[0];
        byte[] bytes = new byte[words.length() / 2];
        for (int word = 0; word < bytes.length / 4; word++) {
            for (int i = 0; i < 4; i++) {
                int at = word * 8 + (3 - i) * 2;
                bytes[word * 4 + i] = (byte) Integer.parseInt(words.substring(at, at + 2), 16);
            }
        }
        try {
            return new InetSocketAddress(InetAddress.getByAddress(bytes), Integer.parseInt(parts[1], 16));
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(hex, e);
        }
    }
}
