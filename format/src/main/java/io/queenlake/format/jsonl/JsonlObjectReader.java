package io.queenlake.format.jsonl;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.queenlake.format.codec.DecodedRecord;
import io.queenlake.format.codec.ObjectReader;
import io.queenlake.format.model.Micros;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Reads a JSONL object back with readers independent of the encoder: zstd-jni's or the JDK's
 * decompressor (see {@link Compression#decompress}) and a Jackson parse of each line. The payload
 * is kept as the raw text of the line's last field, never re-serialised; a line must hold exactly
 * {@code partition, offset, transactionId, ts} in that order before it.
 */
public final class JsonlObjectReader implements ObjectReader {

    private static final JsonFactory JSON = new JsonFactory();
    private static final byte[] PAYLOAD_FIELD = ",\"payload\":".getBytes(StandardCharsets.UTF_8);

    private final Compression compression;

    private JsonlObjectReader(Compression compression) {
        this.compression = Objects.requireNonNull(compression, "compression");
    }

    public static JsonlObjectReader of(Compression compression) {
        return new JsonlObjectReader(compression);
    }

    @Override
    public List<DecodedRecord> read(String key, byte[] body) throws IOException {
        byte[] text;
        try (InputStream in = compression.decompress(new ByteArrayInputStream(body))) {
            text = in.readAllBytes();
        }
        return lines(key, text);
    }

    static List<DecodedRecord> lines(String key, byte[] text) throws IOException {
        List<DecodedRecord> records = new ArrayList<>();
        if (text.length > 0 && text[text.length - 1] != '\n') {
            throw new IOException("object " + key + " does not end with a newline");
        }
        int start = 0;
        for (int i = 0; i < text.length; i++) {
            if (text[i] == '\n') {
                records.add(line(key, Arrays.copyOfRange(text, start, i)));
                start = i + 1;
            }
        }
        return records;
    }

    private static DecodedRecord line(String key, byte[] line) throws IOException {
        int payloadAt = indexOf(line, PAYLOAD_FIELD);
        if (payloadAt < 0 || line[line.length - 1] != '}') {
            throw new IOException("a line of " + key + " has no trailing payload field: "
                    + new String(line, StandardCharsets.UTF_8));
        }
        byte[] head = Arrays.copyOf(line, payloadAt + 1);
        head[payloadAt] = '}';
        byte[] payload = Arrays.copyOfRange(line, payloadAt + PAYLOAD_FIELD.length, line.length - 1);
        String partition = null;
        String transactionId = null;
        String ts = null;
        long offset = -1;
        List<String> order = new ArrayList<>();
        try (JsonParser p = JSON.createParser(head)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("a line of " + key + " is not a JSON object");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                order.add(name);
                p.nextToken();
                switch (name) {
                    case "partition" -> partition = p.getText();
                    case "offset" -> offset = p.getLongValue();
                    case "transactionId" -> transactionId = p.getText();
                    case "ts" -> ts = p.getText();
                    default -> throw new IOException("a line of " + key + " has an unexpected field " + name);
                }
            }
        }
        if (!order.equals(List.of("partition", "offset", "transactionId", "ts"))) {
            throw new IOException("a line of " + key + " has its fields in the order " + order);
        }
        return new DecodedRecord(partition, offset, transactionId, Micros.parse(ts), payload);
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    @Override
    public String toString() {
        return "JsonlObjectReader[" + compression.wireName() + "]";
    }
}
