package io.queenlake.connector.testutils;

import io.queenlake.format.manifest.CheckpointDoc;
import io.queenlake.format.manifest.ManifestJson;
import io.queenlake.format.model.LogRecord;
import io.queenlake.format.model.LostRange;
import io.queenlake.format.window.WindowInput;
import io.queenlake.connector.window.ClosedWindow;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.connector.datagen.source.GeneratorFunction;

/**
 * A small deterministic world of closed windows for sink tests: {@code windowsPerQueue}
 * consecutive 5-minute windows per queue, interleaved across queues (index {@code i} is window
 * {@code i / queues} of queue {@code i % queues}), each with records over a few partitions (one
 * with a name that needs escaping), payloads with raw line breaks and empty ones, a lost range in
 * window 2 and a checkpoint document every {@code checkpointEvery} windows. The same index always
 * gives the same window, so it doubles as a replayable Flink source ({@link GeneratorFunction}).
 */
public final class TestWindows implements GeneratorFunction<Long, ClosedWindow>, Serializable {

    private static final long serialVersionUID = 1L;

    /** 2026-10-03T06:00:00Z, an hour boundary. */
    public static final long BASE_MICROS = 1_791_007_200_000_000L;
    public static final long WINDOW_MICROS = 5 * 60 * 1_000_000L;
    static final String[] PARTITIONS = {"p0", "p1", "caffè/2"};

    private final String tenant;
    private final List<String> queues;
    private final int windowsPerQueue;
    private final int recordsPerWindow;
    private final int checkpointEvery;
    private final int payloadPadding;

    public TestWindows(List<String> queues, int windowsPerQueue, int recordsPerWindow) {
        this(ManifestJson.DEFAULT_TENANT, queues, windowsPerQueue, recordsPerWindow, 3, 0);
    }

    public TestWindows(String tenant, List<String> queues, int windowsPerQueue, int recordsPerWindow,
            int checkpointEvery, int payloadPadding) {
        this.tenant = tenant;
        this.queues = List.copyOf(queues);
        this.windowsPerQueue = windowsPerQueue;
        this.recordsPerWindow = recordsPerWindow;
        this.checkpointEvery = checkpointEvery;
        this.payloadPadding = payloadPadding;
    }

    /** The same world with each payload padded by {@code bytes} (to make objects span multipart parts). */
    public TestWindows withPayloadPadding(int bytes) {
        return new TestWindows(tenant, queues, windowsPerQueue, recordsPerWindow, checkpointEvery, bytes);
    }

    public String tenant() {
        return tenant;
    }

    public List<String> queues() {
        return queues;
    }

    public int windowsPerQueue() {
        return windowsPerQueue;
    }

    /** How many windows the source emits in all. */
    public long count() {
        return (long) queues.size() * windowsPerQueue;
    }

    @Override
    public ClosedWindow map(Long index) {
        int i = Math.toIntExact(index);
        return window(queues.get(i % queues.size()), i / queues.size());
    }

    /** Every window of every queue, in source order. */
    public List<ClosedWindow> all() {
        List<ClosedWindow> all = new ArrayList<>();
        for (long i = 0; i < count(); i++) {
            all.add(map(i));
        }
        return all;
    }

    /** Window {@code w} (0-based, k = w + 1) of {@code queue}. */
    public ClosedWindow window(String queue, int w) {
        long k = w + 1L;
        long tStart = BASE_MICROS + w * WINDOW_MICROS;
        long tEnd = tStart + WINDOW_MICROS;
        List<LogRecord> records = records(queue, w);
        List<LostRange> lost = w == 1 ? List.of(new LostRange("p1", 1_000 + w, 1_002 + w)) : List.of();
        WindowInput input = new WindowInput(tenant, queue, k, tStart, tEnd, records, lost);
        Optional<CheckpointDoc> checkpoint = Optional.empty();
        if (checkpointEvery > 0 && k % checkpointEvery == 0) {
            List<CheckpointDoc.Position> positions = new ArrayList<>();
            for (int p = 0; p < PARTITIONS.length; p++) {
                positions.add(new CheckpointDoc.Position(PARTITIONS[p], nextOffset(p, w), "id-" + p));
            }
            checkpoint = Optional.of(new CheckpointDoc(k, tEnd, positions));
        }
        return new ClosedWindow(input, checkpoint);
    }

    /** Every record of {@code queue} over all its windows: what the lake must hold exactly once. */
    public List<LogRecord> expectedRecords(String queue) {
        List<LogRecord> all = new ArrayList<>();
        for (int w = 0; w < windowsPerQueue; w++) {
            all.addAll(records(queue, w));
        }
        return all;
    }

    private List<LogRecord> records(String queue, int w) {
        long tStart = BASE_MICROS + w * WINDOW_MICROS;
        long step = WINDOW_MICROS / (recordsPerWindow + 1);
        List<LogRecord> records = new ArrayList<>(recordsPerWindow);
        // Emitted partition by partition in reverse: the encoder, not the arrival order, decides the bytes.
        for (int j = recordsPerWindow - 1; j >= 0; j--) {
            int p = j % PARTITIONS.length;
            long offset = (long) w * perPartition(p) + j / PARTITIONS.length;
            long ts = tStart + (j + 1) * step + (j % 3);
            records.add(new LogRecord(PARTITIONS[p], "id-" + p, offset, j % 5 == 4 ? "" : "tx-" + queue + "-" + w + "-" + j,
                    ts, payload(queue, w, j)));
        }
        return records;
    }

    private byte[] payload(String queue, int w, int j) {
        if (j % 7 == 6) {
            return new byte[0];
        }
        String pad = payloadPadding > 0 ? ",\"pad\":\"" + padding(w, j) + "\"" : "";
        String json = j % 4 == 1
                ? "{\n  \"queue\": \"" + queue.replace("\"", "\\\"") + "\",\r\n  \"w\": " + w + ", \"total\": 42.00" + pad + "}"
                : "{\"queue\":\"" + queue.replace("\"", "\\\"") + "\",\"w\":" + w + ",\"j\":" + j + ",\"big\":123456789012345678901234567890" + pad + "}";
        return json.getBytes(StandardCharsets.UTF_8);
    }

    private String padding(int w, int j) {
        // Pseudo-random letters so compression cannot shrink the object below the multipart part size.
        StringBuilder sb = new StringBuilder(payloadPadding);
        long x = 0x9E3779B97F4A7C15L * (w * 1_000_003L + j + 1);
        for (int i = 0; i < payloadPadding; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            sb.append((char) ('a' + Math.floorMod(x, 26)));
        }
        return sb.toString();
    }

    private int perPartition(int p) {
        int n = 0;
        for (int j = 0; j < recordsPerWindow; j++) {
            if (j % PARTITIONS.length == p) {
                n++;
            }
        }
        return n;
    }

    private long nextOffset(int p, int w) {
        return (long) (w + 1) * perPartition(p);
    }
}
