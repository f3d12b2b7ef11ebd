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
 * (so the web UI, REST and Prometheus show them per subtask), with a {@code queue} key/value
 * subgroup where a number belongs to one queue. Callers record through the {@code record*}-style
 * methods; the fetcher thread and the task thread may both call them.
 */
@Internal
public final class QueenSourceMetrics {

    public static final String GROUP = "QueenSourceReader";
    public static final String QUEUE_GROUP = "queue";
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
    private final Map<String, QueueCounters> queues = new ConcurrentHashMap<>();
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
    }

    private static final class QueueCounters {
        final Counter fetchedRecords;
        final Counter fetchedBytes;
        final Counter recordsLost;
        final Counter recordsSkipped;

        QueueCounters(MetricGroup queueGroup) {
            fetchedRecords = queueGroup.counter(FETCHED_RECORDS);
            fetchedBytes = queueGroup.counter(FETCHED_BYTES);
            recordsLost = queueGroup.counter(RECORDS_LOST);
            recordsSkipped = queueGroup.counter(RECORDS_SKIPPED);
        }
    }

    private QueueCounters queue(String name) {
        return queues.computeIfAbsent(name, q -> new QueueCounters(group.addGroup(QUEUE_GROUP, q)));
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

    public void fetched(String queue, long records, long payloadBytes) {
        QueueCounters q = queue(queue);
        q.fetchedRecords.inc(records);
        q.fetchedBytes.inc(payloadBytes);
        numBytesIn.inc(payloadBytes);
    }

    public void lost(String queue, long records) {
        queue(queue).recordsLost.inc(records);
    }

    public void skipped(String queue) {
        queue(queue).recordsSkipped.inc();
    }

    long watermarkLagMillis() {
        long safe = safeTimeMillis;
        long watermark = watermarkMillis;
        return safe == Long.MIN_VALUE || watermark == Long.MIN_VALUE ? -1L : Math.max(0L, safe - watermark);
    }

    /** The counters recorded so far for one queue, for tests and status lines. */
    public long recordsLost(String queue) {
        QueueCounters q = queues.get(queue);
        return q == null ? 0 : q.recordsLost.getCount();
    }

    public long fetchCalls(String result) {
        Counter counter = fetchCalls.get(result);
        return counter == null ? 0 : counter.getCount();
    }

    public long safeTimeMillis() {
        return safeTimeMillis;
    }
}
