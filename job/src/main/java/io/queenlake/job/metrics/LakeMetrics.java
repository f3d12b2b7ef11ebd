package io.queenlake.job.metrics;

import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.model.LostRange;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;

/**
 * The lake sink's per-queue metrics, named after the reference sink, under a {@code queue}
 * key/value subgroup of the committer's metric group (a Prometheus label). Counts what this
 * committer committed: a window recognised as committed before moves the gauges, not the counters.
 * {@code lagSeconds} is the broker's safeTime minus the queue's committed {@code tEnd}, refreshed
 * within about a second of each commit batch, read off the commit path (0 until both are known).
 */
public final class LakeMetrics {

    public static final String QUEUE_GROUP = "queue";
    public static final String WINDOWS_COMMITTED = "windowsCommitted";
    public static final String RECORDS_WRITTEN = "recordsWritten";
    public static final String BYTES_WRITTEN = "bytesWritten";
    public static final String RECORDS_LOST = "recordsLost";
    public static final String COMMITTED_K = "committedK";
    public static final String LAG_SECONDS = "lagSeconds";

    private final MetricGroup group;
    private final Map<String, QueueMetrics> queues = new ConcurrentHashMap<>();
    private volatile long safeTimeMicros = Long.MIN_VALUE;

    public LakeMetrics(MetricGroup group) {
        this.group = group;
    }

    /** Window {@code m} was committed by this job just now. */
    public void recordCommitted(Manifest m) {
        QueueMetrics q = of(m.queue());
        q.windowsCommitted.inc();
        q.recordsWritten.inc(m.records());
        q.bytesWritten.inc(m.bytes());
        long lost = 0;
        for (LostRange r : m.lost()) {
            lost += r.count();
        }
        q.recordsLost.inc(lost);
        q.advance(m.k(), m.tEnd());
    }

    /** Window {@code k} ending at {@code tEnd} was found committed before (a replay). */
    public void recordAlreadyCommitted(String queue, long k, long tEnd) {
        of(queue).advance(k, tEnd);
    }

    /** The broker's safeTime, read once per commit batch. */
    public void recordSafeTime(long micros) {
        safeTimeMicros = micros;
    }

    private QueueMetrics of(String queue) {
        return queues.computeIfAbsent(queue, name -> new QueueMetrics(group.addGroup(QUEUE_GROUP, name)));
    }

    private final class QueueMetrics {
        final Counter windowsCommitted;
        final Counter recordsWritten;
        final Counter bytesWritten;
        final Counter recordsLost;
        volatile long committedK;
        volatile long committedTEnd = Long.MIN_VALUE;

        QueueMetrics(MetricGroup g) {
            windowsCommitted = g.counter(WINDOWS_COMMITTED);
            recordsWritten = g.counter(RECORDS_WRITTEN);
            bytesWritten = g.counter(BYTES_WRITTEN);
            recordsLost = g.counter(RECORDS_LOST);
            g.gauge(COMMITTED_K, () -> committedK);
            g.gauge(LAG_SECONDS, this::lagSeconds);
        }

        synchronized void advance(long k, long tEnd) {
            if (k > committedK) {
                committedK = k;
                committedTEnd = tEnd;
            }
        }

        double lagSeconds() {
            long safe = safeTimeMicros;
            long tEnd = committedTEnd;
            if (safe == Long.MIN_VALUE || tEnd == Long.MIN_VALUE) {
                return 0.0;
            }
            return Math.max(0, safe - tEnd) / 1_000_000.0;
        }
    }
}
