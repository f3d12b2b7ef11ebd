package io.queenlake.source.metrics;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.annotation.Internal;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.SourceReaderMetricGroup;

/**
 * A QueenSource reader's metrics, under the reader's metric group in a {@value #GROUP} subgroup
 * (so the web UI, REST and Prometheus show them per subtask). They are the reader's totals, not
 * per queue: a reader of thousands of queues would otherwise send four counters a queue in every
 * metric dump and crowd the task's own gauges out of it; what landed per queue is the committer's
 * ({@code recordsWritten}, {@code bytesWritten}, {@code recordsLost} under a {@code queue} label),
 * and every lost range and skipped record is logged with its queue. Callers record through the
 * {@code record*}-style methods; the fetcher thread and the task thread may both call them.
 */
@Internal
public final class QueenSourceMetrics {

    public static final String GROUP = "QueenSourceReader";
    public static final String RESULT_GROUP = "result";

    /** The last complete discovery pass's safeTime, epoch milliseconds. */
    public static final String SAFE_TIME = "safeTime";
    /** The last emitted watermark, epoch milliseconds. */
    public static final String WATERMARK = "watermark";
    /** safeTime minus the emitted watermark, milliseconds (the guard plus how far reading lags). */
    public static final String WATERMARK_LAG_MS = "watermarkLagMs";
    /** Splits behind discovery that are not fetched now: one window ahead, or their queue's own fetch backing off. */
    public static final String PAUSED_SPLITS = "pausedSplits";
    /** Queues whose fetch calls fail while the reader's other queues' are answered, fetched apart with a backoff. */
    public static final String FAILING_QUEUES = "failingQueues";
    /** Fetch calls, under {@code result=records|empty|entryError|failed}. */
    public static final String FETCH_CALLS = "fetchCalls";
    public static final String FETCHED_RECORDS = "fetchedRecords";
    public static final String FETCHED_BYTES = "fetchedBytes";
    /** Offsets the broker no longer had when they were read (retention, replaced incarnation). */
    public static final String RECORDS_LOST = "recordsLost";
    /** Records read but not emitted because they are stamped below the split's start time. */
    public static final String RECORDS_SKIPPED = "recordsSkipped";

    public static final String RESULT_RECORDS = "records";
    public static final String RESULT_EMPTY = "empty";
    public static final String RESULT_ENTRY_ERROR = "entryError";
    public static final String RESULT_FAILED = "failed";

    private final MetricGroup group;
    private final Counter numBytesIn;
    private final Map<String, Counter> fetchCalls = new ConcurrentHashMap<>();
    private final Counter fetchedRecords;
    private final Counter fetchedBytes;
    private final Counter recordsLost;
    private final Counter recordsSkipped;
    private volatile long safeTimeMillis = Long.MIN_VALUE;
    private volatile long watermarkMillis = Long.MIN_VALUE;
    private volatile int pausedSplits;
    private volatile int failingQueues;

    public QueenSourceMetrics(SourceReaderMetricGroup readerGroup) {
        this.group = readerGroup.addGroup(GROUP);
        this.numBytesIn = readerGroup.getIOMetricGroup().getNumBytesInCounter();
        group.gauge(SAFE_TIME, (Gauge<Long>) () -> safeTimeMillis);
        group.gauge(WATERMARK, (Gauge<Long>) () -> watermarkMillis);
        group.gauge(WATERMARK_LAG_MS, (Gauge<Long>) this::watermarkLagMillis);
        group.gauge(PAUSED_SPLITS, (Gauge<Integer>) () -> pausedSplits);
        group.gauge(FAILING_QUEUES, (Gauge<Integer>) () -> failingQueues);
        for (String result : new String[] {RESULT_RECORDS, RESULT_EMPTY, RESULT_ENTRY_ERROR, RESULT_FAILED}) {
            fetchCalls.put(result, group.addGroup(RESULT_GROUP, result).counter(FETCH_CALLS));
        }
        fetchedRecords = group.counter(FETCHED_RECORDS);
        fetchedBytes = group.counter(FETCHED_BYTES);
        recordsLost = group.counter(RECORDS_LOST);
        recordsSkipped = group.counter(RECORDS_SKIPPED);
    }

    /** A complete pass arrived with this safeTime (microseconds). */
    public void onPass(long safeTimeMicros) {
        safeTimeMillis = Math.max(safeTimeMillis, Math.floorDiv(safeTimeMicros, 1000L));
    }

    public void onWatermark(long millis) {
        watermarkMillis = millis;
    }

    public void setPausedSplits(int splits) {
        pausedSplits = splits;
    }

    public void setFailingQueues(int queues) {
        failingQueues = queues;
    }

    /** One fetch call ended with {@code result} (one of the {@code RESULT_*} names). */
    public void fetchCall(String result) {
        Counter counter = fetchCalls.get(result);
        if (counter == null) {
            throw new IllegalArgumentException("fetch result '" + result + "' is not one of " + fetchCalls.keySet());
        }
        counter.inc();
    }

    /** A fetch call brought {@code records} records of {@code payloadBytes} payload bytes. */
    public void fetched(long records, long payloadBytes) {
        fetchedRecords.inc(records);
        fetchedBytes.inc(payloadBytes);
        numBytesIn.inc(payloadBytes);
    }

    public void lost(long records) {
        recordsLost.inc(records);
    }

    public void skipped() {
        recordsSkipped.inc();
    }

    long watermarkLagMillis() {
        long safe = safeTimeMillis;
        long watermark = watermarkMillis;
        return safe == Long.MIN_VALUE || watermark == Long.MIN_VALUE ? -1L : Math.max(0L, safe - watermark);
    }

    /** The records the broker no longer had when this reader read them, in total (for tests and status lines). */
    public long recordsLost() {
        return recordsLost.getCount();
    }

    public long fetchCalls(String result) {
        Counter counter = fetchCalls.get(result);
        return counter == null ? 0 : counter.getCount();
    }

    public long safeTimeMillis() {
        return safeTimeMillis;
    }
}
