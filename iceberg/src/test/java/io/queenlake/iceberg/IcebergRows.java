package io.queenlake.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.format.model.LogRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;

/** A queue's Iceberg table read row by row with Iceberg's own generic reader, against the records it must hold. */
public final class IcebergRows {

    private IcebergRows() {}

    /** partition, offset, ts (micros) and payload text of each row; asserts no row is there twice. */
    public static List<String> of(Table table) throws IOException {
        List<String> rows = new ArrayList<>();
        try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
            for (Record r : records) {
                OffsetDateTime ts = (OffsetDateTime) r.getField("ts");
                long micros = ChronoUnit.MICROS.between(OffsetDateTime.of(1970, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC), ts);
                rows.add(r.getField("partition") + "|" + r.getField("offset") + "|" + micros + "|" + r.getField("payload"));
            }
        }
        Set<String> distinct = new HashSet<>(rows);
        assertThat(distinct).as("no row twice").hasSize(rows.size());
        return rows;
    }

    /** The same rendering of the records a queue's log holds. */
    public static List<String> of(Collection<LogRecord> log) {
        List<String> rows = new ArrayList<>();
        for (LogRecord r : log) {
            String payload = r.payload() == null || r.payload().length == 0 ? null
                    : new String(r.payload(), StandardCharsets.UTF_8);
            rows.add(r.partition() + "|" + r.offset() + "|" + r.tsMicros() + "|" + payload);
        }
        return rows;
    }
}
