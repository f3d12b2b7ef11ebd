package io.queenlake.job.verify;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.github.luben.zstd.ZstdInputStream;
import io.queenlake.format.model.Micros;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.DelegatingSeekableInputStream;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.io.SeekableInputStream;
import org.apache.parquet.schema.MessageType;

/**
 * Reads a lake object back with readers independent of the encoders: zstd-jni / the JDK's gzip
 * and a JSON parse of each line for JSONL, parquet-java's reader for Parquet. The JSONL payload
 * is kept as the raw text of the line's last field, never re-serialised.
 */
final class LakeObjectReader {

    private static final JsonFactory JSON = new JsonFactory();
    private static final byte[] PAYLOAD_FIELD = ",\"payload\":".getBytes(StandardCharsets.UTF_8);

    private LakeObjectReader() {}

    static List<DecodedRecord> read(String key, byte[] body) throws IOException {
        if (key.endsWith(".parquet")) {
            return parquet(body);
        }
        InputStream in;
        if (key.endsWith(".jsonl.zst")) {
            in = new ZstdInputStream(new ByteArrayInputStream(body));
        } else if (key.endsWith(".jsonl.gz")) {
            in = new GZIPInputStream(new ByteArrayInputStream(body));
        } else if (key.endsWith(".jsonl")) {
            in = new ByteArrayInputStream(body);
        } else {
            throw new IOException("object " + key + " has no lake extension (.jsonl[.zst|.gz] or .parquet)");
        }
        byte[] text;
        try (in) {
            text = in.readAllBytes();
        }
        return jsonl(key, text);
    }

    static List<DecodedRecord> jsonl(String key, byte[] text) throws IOException {
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

    static List<DecodedRecord> parquet(byte[] body) throws IOException {
        List<DecodedRecord> records = new ArrayList<>();
        try (ParquetFileReader reader = ParquetFileReader.open(new BytesInputFile(body))) {
            MessageType schema = reader.getFooter().getFileMetaData().getSchema();
            MessageColumnIO io = new ColumnIOFactory().getColumnIO(schema);
            PageReadStore rowGroup;
            while ((rowGroup = reader.readNextRowGroup()) != null) {
                RecordReader<Group> rows = io.getRecordReader(rowGroup, new GroupRecordConverter(schema));
                for (long r = 0; r < rowGroup.getRowCount(); r++) {
                    Group g = rows.read();
                    byte[] payload = g.getFieldRepetitionCount("payload") == 0 ? null : g.getBinary("payload", 0).getBytes();
                    records.add(new DecodedRecord(g.getString("partition", 0), g.getLong("offset", 0),
                            g.getString("transaction_id", 0), g.getLong("ts", 0), payload));
                }
            }
        }
        return records;
    }

    /** A Parquet input over bytes in memory. */
    private static final class BytesInputFile implements InputFile {
        private final byte[] bytes;

        BytesInputFile(byte[] bytes) {
            this.bytes = bytes;
        }

        @Override
        public long getLength() {
            return bytes.length;
        }

        @Override
        public SeekableInputStream newStream() {
            SeekableBytes in = new SeekableBytes(bytes);
            return new DelegatingSeekableInputStream(in) {
                @Override
                public long getPos() {
                    return in.position();
                }

                @Override
                public void seek(long newPos) {
                    in.seek(newPos);
                }
            };
        }
    }

    private static final class SeekableBytes extends ByteArrayInputStream {
        SeekableBytes(byte[] bytes) {
            super(bytes);
        }

        long position() {
            return pos;
        }

        void seek(long newPos) {
            pos = Math.toIntExact(newPos);
        }
    }
}
