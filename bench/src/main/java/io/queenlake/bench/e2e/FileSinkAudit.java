package io.queenlake.bench.e2e;

import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import io.queenlake.format.object.Format;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.schema.MessageType;

/**
 * A FileSink run's bucket read back once the clock stopped, as the lake's is by its checker: every
 * committed part opened (JSON lines through zstd, Parquet's partition and offset columns), and every
 * record's {@code (queue, partition, offset)} checked to be there once. Returns the records read; a
 * record twice stops the benchmark, a missing one shows as a count below the corpus's.
 */
final class FileSinkAudit {

    private static final String LINE_START = "{\"partition\":\"";
    private static final String OFFSET = ",\"offset\":";

    /** The offsets read per queue and partition, appended unsorted. */
    private final Map<String, Offsets> seen = new HashMap<>();
    private long records;

    private FileSinkAudit() {}

    static long check(BucketFolder folder, Format format, String label) throws IOException {
        FileSinkAudit audit = new FileSinkAudit();
        String suffix = "." + format.extension();
        for (Path f : folder.objects()) {
            String name = f.getFileName().toString();
            if (name.startsWith("part-") && name.endsWith(suffix)) {
                String bucketId = f.getParent().getFileName().toString();
                if (format instanceof Format.Parquet) {
                    audit.parquet(f, bucketId);
                } else {
                    audit.lines(f, bucketId);
                }
            }
        }
        audit.onceEach(label);
        return audit.records;
    }

    private void lines(Path f, String bucketId) throws IOException {
        // ISO-8859-1 maps bytes to chars one to one: a partition's bytes compare as they were written.
        try (BufferedReader in = new BufferedReader(new InputStreamReader(
                new ZstdInputStreamNoFinalizer(Files.newInputStream(f)), StandardCharsets.ISO_8859_1), 1 << 16)) {
            for (String line; (line = in.readLine()) != null; ) {
                int end = partitionEnd(line);
                if (!line.startsWith(LINE_START) || end < 0 || !line.startsWith(OFFSET, end + 1)) {
                    throw new IllegalStateException("not a FileSink JSON line in " + f + ": "
                            + line.substring(0, Math.min(80, line.length())));
                }
                int digits = end + 1 + OFFSET.length();
                int stop = line.indexOf(',', digits);
                add(bucketId, line.substring(LINE_START.length(), end), Long.parseLong(line.substring(digits, stop)));
            }
        }
    }

    /** The index of the quote that closes the partition string, or -1. */
    private static int partitionEnd(String line) {
        for (int i = LINE_START.length(); i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '"') {
                return i;
            }
        }
        return -1;
    }

    private void parquet(Path f, String bucketId) throws IOException {
        try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(f))) {
            MessageType file = reader.getFooter().getFileMetaData().getSchema();
            MessageType columns = new MessageType(file.getName(), List.of(file.getType("partition"), file.getType("offset")));
            reader.setRequestedSchema(columns);
            PageReadStore rows;
            while ((rows = reader.readNextRowGroup()) != null) {
                RecordReader<Group> records = new ColumnIOFactory().getColumnIO(columns)
                        .getRecordReader(rows, new GroupRecordConverter(columns));
                for (long i = 0; i < rows.getRowCount(); i++) {
                    Group row = records.read();
                    add(bucketId, row.getBinary("partition", 0).toStringUsingUTF8(), row.getLong("offset", 0));
                }
            }
        }
    }

    private void add(String bucketId, String partition, long offset) {
        seen.computeIfAbsent(bucketId + " " + partition, k -> new Offsets()).add(offset);
        records++;
    }

    private void onceEach(String label) {
        seen.forEach((partition, offsets) -> {
            long duplicate = offsets.firstDuplicate();
            if (duplicate >= 0) {
                throw new IllegalStateException("the parts of " + label + " hold " + partition + " offset " + duplicate
                        + " more than once");
            }
        });
    }

    /** A growable array of offsets. */
    private static final class Offsets {
        private long[] values = new long[1024];
        private int size;

        void add(long offset) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = offset;
        }

        /** An offset held twice, or -1 (offsets are never negative). */
        long firstDuplicate() {
            long[] sorted = Arrays.copyOf(values, size);
            Arrays.sort(sorted);
            for (int i = 1; i < sorted.length; i++) {
                if (sorted[i] == sorted[i - 1]) {
                    return sorted[i];
                }
            }
            return -1;
        }
    }
}
