package io.queenlake.format.parquet;

import io.queenlake.format.codec.DecodedRecord;
import io.queenlake.format.codec.ObjectReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
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
 * Reads a Parquet object back with parquet-java's own reader (its generic record API), not the
 * envelope writer's code. The codec is read from the file, so one reader serves every codec.
 */
public final class ParquetObjectReader implements ObjectReader {

    public static final ParquetObjectReader INSTANCE = new ParquetObjectReader();

    private ParquetObjectReader() {}

    @Override
    public List<DecodedRecord> read(String key, byte[] body) throws IOException {
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

    @Override
    public String toString() {
        return "ParquetObjectReader";
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
