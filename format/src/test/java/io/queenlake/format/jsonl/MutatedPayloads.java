package io.queenlake.format.jsonl;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/** Payloads near and just off valid JSON, and the strict parser that judges them (Jackson's defaults). */
final class MutatedPayloads {

    private MutatedPayloads() {}

    /** An order-like object (the benchmark's shape), sometimes pretty-printed, with escapes and non-ASCII text. */
    static byte[] orderPayload(Random random) {
        String gap = random.nextInt(4) == 0 ? List.of(" ", "\n  ", "\r\n\t", "").get(random.nextInt(4)) : "";
        StringBuilder json = new StringBuilder("{").append(gap).append("\"orderId\":").append(gap)
                .append(random.nextInt(1_000_000_000)).append(",\"status\":\"")
                .append(List.of("paid", "created", "caff\u00e8 \u20ac", "say \\\"hi\\\"", "\\u00e9\\n", "\uD83D\uDE00")
                        .get(random.nextInt(6)))
                .append("\",").append(gap).append("\"items\":[");
        for (int i = random.nextInt(4); i >= 0; i--) {
            json.append("{\"sku\":\"SKU-").append(random.nextInt(99_999)).append("\",\"qty\":")
                    .append(random.nextInt(12)).append(",\"price\":").append(random.nextInt(500)).append('.')
                    .append(random.nextInt(99)).append(",\"ok\":").append(List.of("true", "false", "null").get(random.nextInt(3)))
                    .append(",\"w\":").append(List.of("-0.5", "1e9", "2E-3", "0", "-12").get(random.nextInt(5)))
                    .append(i == 0 ? "}" : "},").append(gap);
        }
        return json.append("],\"note\":\"").append("leave at the door ".repeat(random.nextInt(4)))
                .append("\"").append(gap).append('}').toString().getBytes(StandardCharsets.UTF_8);
    }

    /** One random edit: a byte changed, dropped or inserted, a span repeated, or the text cut short. */
    static byte[] mutate(byte[] text, Random random, byte[] spice) {
        if (text.length == 0) {
            return new byte[] {spice[random.nextInt(spice.length)]};
        }
        int at = random.nextInt(text.length);
        byte b = spice[random.nextInt(spice.length)];
        return switch (random.nextInt(5)) {
            case 0 -> {
                byte[] t = text.clone();
                t[at] = b;
                yield t;
            }
            case 1 -> concat(Arrays.copyOf(text, at), Arrays.copyOfRange(text, at + 1, text.length));
            case 2 -> concat(Arrays.copyOf(text, at), new byte[] {b}, Arrays.copyOfRange(text, at, text.length));
            case 3 -> {
                int end = Math.min(text.length, at + 1 + random.nextInt(12));
                yield concat(Arrays.copyOf(text, end), Arrays.copyOfRange(text, at, text.length));
            }
            default -> Arrays.copyOf(text, at);
        };
    }

    private static byte[] concat(byte[]... parts) {
        byte[] out = new byte[Arrays.stream(parts).mapToInt(p -> p.length).sum()];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }

    private static final JsonFactory JACKSON = new JsonFactory();

    /** Jackson's strict defaults, reading every token's text so that strings and numbers are fully decoded. */
    static boolean jacksonAccepts(byte[] text) throws IOException {
        try (JsonParser parser = JACKSON.createParser(text)) {
            JsonToken token = parser.nextToken();
            if (token == null) {
                return false;
            }
            int depth = 0;
            do {
                if (token.isStructStart()) {
                    depth++;
                } else if (token.isStructEnd()) {
                    depth--;
                } else {
                    parser.getText();
                }
            } while (depth > 0 && (token = parser.nextToken()) != null);
            return depth == 0 && parser.nextToken() == null;
        } catch (IOException refused) { // Jackson reports every refusal as one
            return false;
        }
    }
}
