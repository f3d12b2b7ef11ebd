package io.queenlake.devstack.broker;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reading request bodies. Small control bodies become trees; values the broker must store verbatim
 * (push payloads, KV values) are sliced out of the request bytes by a streaming parse, never re-printed.
 */
final class WireJson {

    static final String DEFAULT_PARTITION = "Default";

    /** Payloads are the producer's business: no limits below the 64 MiB body limit. */
    static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxStringLength(Integer.MAX_VALUE)
                    .maxNumberLength(Integer.MAX_VALUE)
                    .maxNestingDepth(10_000)
                    .build())
            .build();
    static final ObjectMapper MAPPER = new ObjectMapper(FACTORY);

    private WireJson() {}

    static JsonNode tree(byte[] body) {
        if (body.length == 0) {
            throw WireError.badBody("the request has no body; send a JSON object");
        }
        try {
            JsonNode node = MAPPER.readTree(body);
            if (node == null || !node.isObject()) {
                throw WireError.badBody("the request body must be a JSON object");
            }
            return node;
        } catch (JsonProcessingException e) {
            throw WireError.badBody("the request body is not JSON (" + e.getOriginalMessage() + ")");
        } catch (IOException e) {
            throw WireError.badBody("the request body could not be read (" + e.getMessage() + ")");
        }
    }

    static JsonParser parser(byte[] body) {
        try {
            return FACTORY.createParser(body);
        } catch (IOException e) {
            throw WireError.badBody("the request body could not be read (" + e.getMessage() + ")");
        }
    }

    /** A partition name as the broker resolves it: a string as is, a number in decimal, anything else Default. */
    static String partitionName(JsonNode node) {
        if (node == null || node.isNull()) {
            return DEFAULT_PARTITION;
        }
        if (node.isTextual()) {
            return node.textValue();
        }
        if (node.isNumber()) {
            return node.isIntegralNumber() ? node.bigIntegerValue().toString() : node.asText();
        }
        return DEFAULT_PARTITION;
    }

    /** The same rule on a streaming parser positioned on the value. */
    static String partitionName(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_STRING) {
            return p.getText();
        }
        if (t == JsonToken.VALUE_NUMBER_INT) {
            return p.getBigIntegerValue().toString();
        }
        if (t == JsonToken.VALUE_NUMBER_FLOAT) {
            return p.getText();
        }
        p.skipChildren();
        return DEFAULT_PARTITION;
    }

    /**
     * The exact bytes of the value the parser is positioned on (its first token), without the
     * whitespace around it; leaves the parser on the value's last token.
     */
    static byte[] rawValue(JsonParser p, byte[] body) throws IOException {
        int start = (int) p.currentTokenLocation().getByteOffset();
        JsonToken t = p.currentToken();
        int end;
        if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
            p.skipChildren();
            end = (int) p.currentTokenLocation().getByteOffset() + 1;
        } else if (t == JsonToken.VALUE_STRING) {
            end = endOfString(body, start);
        } else {
            end = start;
            while (end < body.length && isScalarByte(body[end])) {
                end++;
            }
        }
        return Arrays.copyOfRange(body, start, end);
    }

    /**
     * The {@code entries} array of a batch route (fetch, fetch/offsets, partitions/changed): absent
     * or null is empty; anything but an array, or more than {@code maxEntries}, is refused as the
     * broker refuses it.
     */
    static List<JsonNode> entries(JsonNode body, int maxEntries) {
        JsonNode list = body.get("entries");
        if (list == null || list.isNull()) {
            return List.of();
        }
        if (!list.isArray()) {
            throw WireError.badBody("entries must be an array");
        }
        if (list.size() > maxEntries) {
            throw WireError.badRequest("too many entries");
        }
        List<JsonNode> entries = new ArrayList<>(list.size());
        list.forEach(entries::add);
        return entries;
    }

    /** A key or name field: a JSON string, or a clear refusal. */
    static String text(JsonNode node, String what) {
        if (node == null || !node.isTextual()) {
            throw WireError.badBody(what + " must be a string");
        }
        return node.textValue();
    }

    private static int endOfString(byte[] body, int openingQuote) {
        int i = openingQuote + 1;
        while (i < body.length) {
            byte b = body[i];
            if (b == '\\') {
                i += 2;
            } else if (b == '"') {
                return i + 1;
            } else {
                i++;
            }
        }
        return body.length;
    }

    private static boolean isScalarByte(byte b) {
        return (b >= '0' && b <= '9') || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || b == '-' || b == '+' || b == '.';
    }
}
