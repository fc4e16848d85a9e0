package io.gpuaas.system.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpuaas.events.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Reads a topic the way an operator would: Debian's {@code kcat} as a subprocess against the stack's broker, logged
 * in with the configuration file the stack writes for the read-only SRE user ({@code kcat -F kcat-sre.conf}), from
 * the beginning to the current end, with its JSON envelope ({@code -J}) so that keys, headers and payloads come
 * back exactly as stored, tombstones included.
 */
final class Kcat {

    static final Path BINARY = Path.of("/usr/bin/kcat");

    /**
     * One record as kcat printed it.
     *
     * @param partition partition
     * @param offset    offset in the partition
     * @param key       the record key, null when there is none
     * @param headers   header name to (last) value
     * @param payload   the value parsed as JSON, null for a tombstone
     */
    record KafkaRecord(int partition, long offset, String key, Map<String, String> headers, JsonNode payload) {

        String header(String name) {
            return headers.get(name);
        }

        String type() {
            return headers.get("ce_type");
        }

        /** The payload, or a missing node for a tombstone, so that field lookups need no null check. */
        JsonNode body() {
            return payload == null ? Json.mapper().missingNode() : payload;
        }

        boolean tombstone() {
            return payload == null;
        }
    }

    private Kcat() {}

    static boolean available() {
        return Files.isExecutable(BINARY);
    }

    /**
     * Every record of {@code topic} up to its end now, in partition then offset order.
     *
     * @param config a kcat configuration file ({@code -F}) with the broker and a login
     */
    static List<KafkaRecord> readAll(Path config, String topic) throws IOException, InterruptedException {
        Path out = Files.createTempFile("kcat-" + topic, ".jsonl");
        Path err = Files.createTempFile("kcat-" + topic, ".err");
        try {
            Process kcat = new ProcessBuilder(
                            BINARY.toString(),
                            "-F",
                            config.toString(),
                            "-C",
                            "-t",
                            topic,
                            "-o",
                            "beginning",
                            "-e",
                            "-q",
                            "-J")
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile())
                    .start();
            if (!kcat.waitFor(60, TimeUnit.SECONDS)) {
                kcat.destroyForcibly();
                throw new IllegalStateException("kcat did not reach the end of " + topic + " in 60 s");
            }
            if (kcat.exitValue() != 0) {
                throw new IllegalStateException(
                        "kcat exited with " + kcat.exitValue() + " on " + topic + ": " + Files.readString(err));
            }
            List<KafkaRecord> records = new ArrayList<>();
            for (String line : Files.readAllLines(out, StandardCharsets.UTF_8)) {
                if (!line.isBlank()) {
                    records.add(parse(Json.mapper().readTree(line)));
                }
            }
            return records;
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    private static KafkaRecord parse(JsonNode envelope) throws IOException {
        Map<String, String> headers = new LinkedHashMap<>();
        JsonNode list = envelope.path("headers");
        // kcat prints headers as a flat array: name, value, name, value, ...
        for (int i = 0; i + 1 < list.size(); i += 2) {
            headers.put(
                    list.get(i).asText(),
                    list.get(i + 1).isNull() ? null : list.get(i + 1).asText());
        }
        JsonNode payload = envelope.path("payload");
        JsonNode key = envelope.path("key");
        return new KafkaRecord(
                envelope.path("partition").asInt(),
                envelope.path("offset").asLong(),
                key.isNull() || key.isMissingNode() ? null : key.asText(),
                headers,
                payload.isNull() || payload.isMissingNode()
                        ? null
                        : Json.mapper().readTree(payload.asText()));
    }
}
