package io.gpuaas.system.reliability;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;

/** Bodies, ids and query strings that no client should send; every one must be answered 4xx, never 5xx. */
final class FuzzCases {

    /** A named input. */
    record Input(String name, String value) {}

    private FuzzCases() {}

    static String validBooking(String pool, String namespace, java.time.Instant start) {
        return """
                {"pool":"%s","quantity":1,"start":"%s","end":"%s","namespace":"%s","purpose":"fuzz"}""".formatted(pool, start, start.plusSeconds(600), namespace);
    }

    /** Broken bodies for POST /bookings; {@code otherNamespace} belongs to another tenant. */
    static List<Input> bookingBodies(String otherNamespace, java.time.Instant start) {
        java.time.Instant end = start.plusSeconds(600);
        List<Input> bodies = new ArrayList<>(List.of(
                new Input("empty", ""),
                new Input("blank", "   "),
                new Input("null", "null"),
                new Input("array", "[]"),
                new Input("string", "\"booking\""),
                new Input("number", "42"),
                new Input("truncated", "{\"pool\":\"h200\","),
                new Input("not json", "pool=h200&quantity=1"),
                new Input("empty object", "{}"),
                new Input("quantity as text", body("\"h200\"", "\"two\"", q(start), q(end), "\"team-a\"")),
                new Input("quantity fraction", body("\"h200\"", "1.5", q(start), q(end), "\"team-a\"")),
                new Input("quantity negative", body("\"h200\"", "-1", q(start), q(end), "\"team-a\"")),
                new Input("quantity zero", body("\"h200\"", "0", q(start), q(end), "\"team-a\"")),
                new Input(
                        "quantity overflow", body("\"h200\"", "99999999999999999999", q(start), q(end), "\"team-a\"")),
                new Input("quantity above capacity", body("\"h200\"", "1000", q(start), q(end), "\"team-a\"")),
                new Input("pool as object", body("{\"id\":1}", "1", q(start), q(end), "\"team-a\"")),
                new Input("unknown pool", body("\"no-such-pool\"", "1", q(start), q(end), "\"team-a\"")),
                new Input("start not a date", body("\"h200\"", "1", "\"tomorrow\"", q(end), "\"team-a\"")),
                new Input("start as number", body("\"h200\"", "1", "1700000000", q(end), "\"team-a\"")),
                new Input("start after end", body("\"h200\"", "1", q(end), q(start), "\"team-a\"")),
                new Input(
                        "start in the past",
                        body("\"h200\"", "1", "\"2020-01-01T00:00:00Z\"", "\"2020-01-01T01:00:00Z\"", "\"team-a\"")),
                new Input(
                        "year 999999999",
                        body(
                                "\"h200\"",
                                "1",
                                "\"+999999999-01-01T00:00:00Z\"",
                                "\"+999999999-01-02T00:00:00Z\"",
                                "\"team-a\"")),
                new Input(
                        "other tenant's namespace",
                        body("\"h200\"", "1", q(start), q(end), "\"" + otherNamespace + "\"")),
                new Input("namespace missing", body("\"h200\"", "1", q(start), q(end), "null")),
                new Input("book now, duration not a duration", nowBody("\"two hours\"")),
                new Input("book now, duration negative", nowBody("\"-PT2H\"")),
                new Input("book now, duration zero", nowBody("\"PT0S\"")),
                new Input("book now, duration as number", nowBody("7200")),
                new Input("book now, duration beyond the maximum", nowBody("\"PT9223372036854775807S\"")),
                new Input("book now, neither end nor duration", nowBody("null")),
                new Input("duplicate keys", "{\"pool\":\"h200\",\"pool\":\"x\",\"quantity\":1}"),
                new Input("deeply nested", "[".repeat(20_000) + "]".repeat(20_000)),
                new Input("control characters", body("\"h\\u0000\\u001f200\"", "1", q(start), q(end), "\"team-a\"")),
                new Input("invalid utf-8 escapes", "{\"pool\":\"\\ud800\",\"quantity\":1}"),
                new Input("oversized 64 KiB", "{\"purpose\":\"" + "x".repeat(64 * 1024) + "\"}"),
                new Input("oversized 4 MiB", "{\"purpose\":\"" + "x".repeat(4 * 1024 * 1024) + "\"}")));
        return bodies;
    }

    /** Broken bodies for PATCH /bookings/{id}. */
    static List<Input> changeBodies() {
        return List.of(
                new Input("empty", ""),
                new Input("array", "[]"),
                new Input("end not a date", "{\"end\":\"soon\"}"),
                new Input("end in the past", "{\"end\":\"2020-01-01T00:00:00Z\"}"),
                new Input("end as number", "{\"end\":5}"),
                new Input("duration not a duration", "{\"duration\":\"longer\"}"),
                new Input("duration negative", "{\"duration\":\"-PT1H\"}"),
                new Input("duration and end", "{\"duration\":\"PT1H\",\"end\":\"2020-01-01T00:00:00Z\"}"),
                new Input("oversized", "{\"end\":\"" + "9".repeat(100_000) + "\"}"));
    }

    /** Ids that are not bookings of the caller. */
    static List<Input> ids() {
        return List.of(
                new Input("random uuid", "4f1c1f1e-0000-4000-8000-000000000000"),
                new Input("not a uuid", "booking"),
                new Input("dot-dot", "..%2F..%2Fetc%2Fpasswd"),
                new Input("long", "a".repeat(4000)),
                new Input("encoded nul", "%00"),
                new Input("unicode", "%F0%9F%92%A5"),
                new Input("sql", "1%27%20OR%20%271%27%3D%271"));
    }

    /** Query strings for GET /pools/{id}/availability. */
    static List<Input> availabilityQueries() {
        return List.of(
                new Input("from not a date", "from=yesterday"),
                new Input("step negative", "step=-PT1H"),
                new Input("step zero", "step=PT0S"),
                new Input("step not a duration", "step=hourly"),
                new Input("to before from", "from=2030-01-02T00:00:00Z&to=2030-01-01T00:00:00Z"),
                new Input("tiny step over a year", "from=2030-01-01T00:00:00Z&to=2031-01-01T00:00:00Z&step=PT1S"),
                new Input("quantity negative", "quantity=-3&duration=PT1H"),
                new Input("quantity text", "quantity=many"),
                new Input("duration zero", "quantity=1&duration=PT0S"));
    }

    /** Query strings for GET /bookings. */
    static List<Input> listQueries() {
        return List.of(
                new Input("unknown state", "state=BOGUS"),
                new Input("limit negative", "limit=-1"),
                new Input("limit huge", "limit=2147483647"),
                new Input("limit overflow", "limit=99999999999"),
                new Input("limit text", "limit=all"),
                new Input("cursor garbage", "cursor=%25%25%25"),
                new Input(
                        "cursor base64 junk",
                        "cursor=" + Base64.getUrlEncoder().encodeToString("{\"x\":".getBytes(StandardCharsets.UTF_8))),
                new Input("from not a date", "from=now"));
    }

    /** Seeded random edits of a valid body (full mode): character flips, cuts and insertions. */
    static List<Input> mutations(String valid, int count, long seed) {
        Random random = new Random(seed);
        String alphabet = "{}[]\":,0123456789-.eE \\untrfals\u00e9\u0000";
        List<Input> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            StringBuilder s = new StringBuilder(valid);
            int edits = 1 + random.nextInt(4);
            for (int e = 0; e < edits && !s.isEmpty(); e++) {
                int at = random.nextInt(s.length());
                switch (random.nextInt(3)) {
                    case 0 -> s.setCharAt(at, alphabet.charAt(random.nextInt(alphabet.length())));
                    case 1 -> s.deleteCharAt(at);
                    default -> s.insert(at, alphabet.charAt(random.nextInt(alphabet.length())));
                }
            }
            out.add(new Input("mutation " + i, s.toString()));
        }
        return out;
    }

    private static String q(java.time.Instant instant) {
        return "\"" + instant + "\"";
    }

    /** A book-now body (no start, no end) with {@code duration} as raw JSON. */
    private static String nowBody(String duration) {
        return "{\"pool\":\"h200\",\"quantity\":1,\"namespace\":\"team-a\",\"duration\":" + duration + "}";
    }

    private static String body(String pool, String quantity, String start, String end, String namespace) {
        return "{\"pool\":" + pool + ",\"quantity\":" + quantity + ",\"start\":" + start + ",\"end\":" + end
                + ",\"namespace\":" + namespace + "}";
    }
}
