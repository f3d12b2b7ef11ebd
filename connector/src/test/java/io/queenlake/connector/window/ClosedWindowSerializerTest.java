package io.queenlake.connector.window;

import io.queenlake.format.manifest.CheckpointDoc;
import io.queenlake.format.manifest.Intent;
import io.queenlake.format.model.Layout;
import io.queenlake.format.model.LogRecord;
import io.queenlake.format.model.LostRange;
import io.queenlake.format.window.WindowInput;
import io.queenlake.connector.window.ClosedWindow;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.apache.flink.api.common.typeutils.SerializerTestBase;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/** Flink's own serializer contract for the window operator's output. */
class ClosedWindowSerializerTest extends SerializerTestBase<ClosedWindow> {

    private static final String TENANT = "00000000-0000-0000-0000-000000000001";

    @Override
    protected TypeSerializer<ClosedWindow> createSerializer() {
        return ClosedWindowSerializer.INSTANCE;
    }

    @Override
    protected int getLength() {
        return -1;
    }

    @Override
    protected Class<ClosedWindow> getTypeClass() {
        return ClosedWindow.class;
    }

    @Override
    protected ClosedWindow[] getTestData() {
        long t0 = 1_791_007_200_000_000L;
        long t1 = t0 + 300_000_000L;
        List<LogRecord> records = List.of(
                new LogRecord("cust-1", "A", 4, "t-1", t0 + 5, "{\"a\":1}".getBytes(StandardCharsets.UTF_8)),
                new LogRecord("cust-2", "", 0, "", t0 + 5, null),
                new LogRecord("é", "B", 9, "t", t1 - 1, "[1,2.50]".getBytes(StandardCharsets.UTF_8)));
        WindowInput window = new WindowInput(TENANT, "orders", 3, t0, t1, records,
                List.of(new LostRange("cust-1", 0, 3)));
        return new ClosedWindow[] {
            new ClosedWindow(window, Optional.empty()),
            new ClosedWindow(window, Optional.of(new CheckpointDoc(3, t1, List.of(
                    new CheckpointDoc.Position("cust-1", 5, "A"), new CheckpointDoc.Position("é", 10, "B"),
                    new CheckpointDoc.Position("old", 7, ""))))),
            new ClosedWindow(new WindowInput("t", "q/ü", 1, t0 + 17, t0 + 18,
                    List.of(new LogRecord("p", "", 0, "", t0 + 17, null)), List.of()),
                    Optional.of(new CheckpointDoc(1, t0 + 18, List.of()))),
            new ClosedWindow(window, Optional.empty(), Optional.of(new Intent(3, t0, t1, "parquet", "snappy",
                    Layout.PER_PARTITION, "queen-lake/0.1.0 parquet+snappy"))),
        };
    }
}
