package io.queenlake.connector.metrics;

import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.model.LostRange;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.annotation.Internal;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;

/**
 * The lake sink's per-queue metrics, named after the reference sink, under a {@code queue}
 * key/value subgroup of the committer's metric group (a Prometheus label). Counts what this
 * committer committed: a window recognised as committed before moves the gauges, not the counters.
 * The queue's {@code lagSeconds} is not here: it needs the checkpointed progress of idle queues,
 * which the source's enumerator has (docs/ARCHITECTURE.md "Lag").
 */
@Internal
public final class LakeMetrics {

    public static final String QUEUE_GROUP = "queue";
    public static final String WINDOWS_COMMITTED = "windowsCommitted";
    public static final String RECORDS_WRITTEN = "recordsWritten";
    public static final String BYTES_WRITTEN = "bytesWritten";
    public static final String RECORDS_LOST = "recordsLost";
    public static final String COMMITTED_K = "committedK";
    /** With an Iceberg catalog: windows appended to the queue's table. */
    public static final String TABLE_APPENDS = "tableAppends";
    /**
     * Windows found in their table already (a retry), and appends the catalog (or its storage)
     * failed, each retried: the committer's totals, not per queue (each is logged with its queue),
     * so a job of thousands of queues keeps its metric dump within Flink's frame.
     */
    public static final String TABLE_APPENDS_FOUND = "tableAppendsFound";
    public static final String TABLE_APPENDS_FAILED = "tableAppendsFailed";
    /** The newest window the queue's Iceberg table holds, as this committer saw it. */
    public static final String TABLE_K = "tableK";
    /**
     * How long the queue's last table append took (ms): reading the table again, the exactly-once
     * check and the commit; Iceberg's Flink sink calls it {@code lastCommitDurationMs}.
     */
    public static final String TABLE_COMMIT_MILLIS = "tableCommitMillis";
    /**
     * Seconds since the queue's table last took (or was found to hold) a window, counted from the
     * committer's start before the first; Iceberg's Flink sink calls it
     * {@code elapsedSecondsSinceLastSuccessfulCommit}.
     */
    public static final String TABLE_COMMIT_AGE_SECONDS = "tableCommitAgeSeconds";

    private final MetricGroup group;
    private final Map<String, QueueMetrics> queues = new ConcurrentHashMap<>();
    /** Registered with the first append: a job without a catalog shows no table metrics. */
    private TableTotals tableTotals;

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
        q.advance(m.k());
    }

    /** Window {@code k} ending at {@code tEnd} was found committed before (a replay). */
    public void recordAlreadyCommitted(String queue, long k, long tEnd) {
        of(queue).advance(k);
    }

    /**
     * Window {@code k} is in the queue's Iceberg table, and the call that appended or found it took
     * {@code commitMillis} (negative when unknown: the duration gauge keeps its value).
     */
    public void recordTableAppend(String queue, long k, boolean appended, long commitMillis) {
        of(queue).table().record(k, appended, commitMillis);
        if (!appended) {
            tableTotals().found.inc();
        }
    }

    /** An append of the queue's window to its Iceberg table failed and will be retried. */
    public void recordTableAppendFailed(String queue) {
        tableTotals().failed.inc();
    }

    /** Rare (a retry or a failed append), so a plain lock. */
    private synchronized TableTotals tableTotals() {
        if (tableTotals == null) {
            tableTotals = new TableTotals(group.counter(TABLE_APPENDS_FOUND), group.counter(TABLE_APPENDS_FAILED));
        }
        return tableTotals;
    }

    private record TableTotals(Counter found, Counter failed) {}

    private QueueMetrics of(String queue) {
        return queues.computeIfAbsent(queue, name -> new QueueMetrics(group.addGroup(QUEUE_GROUP, name)));
    }

    private final class QueueMetrics {
        final Counter windowsCommitted;
        final Counter recordsWritten;
        final Counter bytesWritten;
        final Counter recordsLost;
        private final MetricGroup group;
        private TableMetrics table;
        volatile long committedK;

        QueueMetrics(MetricGroup g) {
            windowsCommitted = g.counter(WINDOWS_COMMITTED);
            recordsWritten = g.counter(RECORDS_WRITTEN);
            bytesWritten = g.counter(BYTES_WRITTEN);
            recordsLost = g.counter(RECORDS_LOST);
            g.gauge(COMMITTED_K, () -> committedK);
            group = g;
        }

        /** Registered with the first append: a job without a catalog shows no table metrics. */
        synchronized TableMetrics table() {
            if (table == null) {
                table = new TableMetrics(group);
            }
            return table;
        }

        synchronized void advance(long k) {
            if (k > committedK) {
                committedK = k;
            }
        }
    }

    private static final class TableMetrics {
        final Counter appends;
        volatile long tableK;
        volatile long commitMillis;
        volatile long lastSuccessMillis = System.currentTimeMillis();

        TableMetrics(MetricGroup g) {
            appends = g.counter(TABLE_APPENDS);
            g.gauge(TABLE_K, () -> tableK);
            g.gauge(TABLE_COMMIT_MILLIS, () -> commitMillis);
            g.gauge(TABLE_COMMIT_AGE_SECONDS, () -> (System.currentTimeMillis() - lastSuccessMillis) / 1000L);
        }

        synchronized void record(long k, boolean appended, long millis) {
            if (appended) {
                appends.inc();
            }
            lastSuccessMillis = System.currentTimeMillis();
            if (millis >= 0) {
                commitMillis = millis;
            }
            if (k > tableK) {
                tableK = k;
            }
        }
    }
}
