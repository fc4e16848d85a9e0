package io.gpuaas.metrics.kafka;

/** Jackson's JSON string escaping, for the rare label value that is not plain printable ASCII. */
final class JsonStrings {

    private JsonStrings() {
    }

    /** {@code text} quoted and escaped as Jackson writes it (non-ASCII characters are kept, to be UTF-8 encoded). */
    static String quote(String text) {
        StringBuilder out = new StringBuilder(text.length() + 8).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04X", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
