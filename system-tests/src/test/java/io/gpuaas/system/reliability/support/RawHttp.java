package io.gpuaas.system.reliability.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * Requests the JDK client refuses to send (invalid percent escapes, made-up methods, huge headers): written to the
 * socket as they are, answering the status of the first response line, or 0 when the server closed the connection.
 */
public final class RawHttp {

    private RawHttp() {}

    public static int send(String baseUrl, String requestHead) {
        URI uri = URI.create(baseUrl);
        try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
            socket.setSoTimeout(15_000);
            OutputStream out = socket.getOutputStream();
            out.write(requestHead.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            StringBuilder line = new StringBuilder();
            for (int c = in.read(); c != -1 && c != '\n'; c = in.read()) {
                line.append((char) c);
            }
            String[] parts = line.toString().split(" ");
            return parts.length > 1 && parts[0].startsWith("HTTP/") ? Integer.parseInt(parts[1]) : 0;
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
    }
}
