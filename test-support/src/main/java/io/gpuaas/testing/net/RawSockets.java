package io.gpuaas.testing.net;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/** A client that speaks HTTP a byte at a time, as the slow-header probes of the edge tests do. */
public final class RawSockets {

    private RawSockets() {}

    /** Writes {@code text} as the bytes of an HTTP/1.1 head and flushes it. */
    public static void write(Socket socket, String text) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(text.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    /** Sends {@code text}; false (and the socket closed) once the server has closed the connection. */
    public static boolean stillOpenAfter(Socket socket, String text) {
        try {
            write(socket, text);
            socket.setSoTimeout(20);
            if (socket.getInputStream().read() != -1) {
                return true;
            }
        } catch (SocketTimeoutException e) {
            return true;
        } catch (IOException e) {
            // reset by the server: closed as well
        }
        try {
            socket.close();
        } catch (IOException ignored) {
            // already gone
        }
        return false;
    }
}
