package io.queenlake.source.enumerator;

import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.SplitEnumeratorMetricGroup;

/**
 * The enumerator's metrics under its coordinator metric group (web UI, REST, Prometheus): totals,
 * plus a {@code queue} subgroup per queue so a reporter gets a label. The coordinator thread sets
 * the values; reporters read them from their own thread, so gauges read only volatile fields.
 */
final class EnumeratorMetrics {

    static final String PARTITIONS_DISCOVERED = "partitionsDiscovered";
    static final String DISCOVERY_PASSES = "discoveryPasses";
    static final String DISCOVERY_FAILURES = "discoveryFailures";
    static final String SAFE_TIME = "safeTime";
    static final String LEASES_HELD = "leasesHeld";
    static final String LEASE_HELD = "leaseHeld";
    static final String REFUSED_QUEUES = "refusedQueues";
    static final String INCARNATIONS_REPLACED = "incarnationsReplaced";
    static final String LAG_SECONDS = "lagSeconds";
    static final String QUEUE_GROUP = "queue";

    private final SplitEnumeratorMetricGroup group;
    private final Counter passes;
    private final Counter failures;
    private final Map<String, QueueMetrics> queues = new ConcurrentHashMap<>();
    private volatile int partitions;
    private volatile long safeTimeMillis = Long.MIN_VALUE;
    private volatile int leasesHeld;
    private volatile long unassigned;
    private volatile int refused;

    /** One queue's values. */
    private static final class QueueMetrics {
        volatile int partitions;
        volatile int leaseHeld;
        /** Broker safeTime minus completeThrough, NaN until known. */
        volatile double lagSeconds = Double.NaN;
        Counter replaced;
    }

    EnumeratorMetrics(SplitEnumeratorMetricGroup group) {
        this.group = group;
        this.passes = group.counter(DISCOVERY_PASSES);
        this.failures = group.counter(DISCOVERY_FAILURES);
        group.gauge(PARTITIONS_DISCOVERED, (Gauge<Integer>) () -> partitions);
        group.gauge(SAFE_TIME, (Gauge<Long>) () -> safeTimeMillis);
        group.gauge(LEASES_HELD, (Gauge<Integer>) () -> leasesHeld);
        group.gauge(REFUSED_QUEUES, (Gauge<Integer>) () -> refused);
        group.setUnassignedSplitsGauge((Gauge<Long>) () -> unassigned);
    }

    private QueueMetrics queue(String queue) {
        return queues.computeIfAbsent(queue, q -> {
            QueueMetrics m = new QueueMetrics();
            MetricGroup g = group.addGroup(QUEUE_GROUP, q);
            g.gauge(PARTITIONS_DISCOVERED, (Gauge<Integer>) () -> m.partitions);
            g.gauge(LEASE_HELD, (Gauge<Integer>) () -> m.leaseHeld);
            m.replaced = g.counter(INCARNATIONS_REPLACED);
            g.gauge(LAG_SECONDS, (Gauge<Double>) () -> m.lagSeconds);
            return m;
        });
    }

    private void partitions(String queue, int count) {
        queue(queue).partitions = count;
    }

    private void leaseHeld(String queue, boolean held) {
        queue(queue).leaseHeld = held ? 1 : 0;
    }

    /** Every wanted queue's lease and partition count, and the totals. */
    void update(WantedQueues wanted, PartitionBook book, long unassigned) {
        int held = 0;
        for (String queue : wanted.names()) {
            boolean mine = wanted.mine(queue);
            held += mine ? 1 : 0;
            leaseHeld(queue, mine);
            partitions(queue, book.partitionCount(queue));
        }
        totals(book.partitionCount(), held, unassigned);
    }

    private void totals(int partitions, int leasesHeld, long unassigned) {
        this.partitions = partitions;
        this.leasesHeld = leasesHeld;
        this.unassigned = unassigned;
    }

    /** Queues held but not read: their lake is ahead of their commit pointer, or not checked yet. */
    void refused(int queues) {
        this.refused = queues;
    }

    void passCompleted(long safeTimeMicros) {
        passes.inc();
        safeTimeMillis = Math.floorDiv(safeTimeMicros, 1000L);
    }

    void passFailed() {
        failures.inc();
    }

    /** The queue's lag (docs/ARCHITECTURE.md "Lag"); empty leaves the last value. */
    void lag(String queue, OptionalLong millis) {
        millis.ifPresent(ms -> queue(queue).lagSeconds = ms / 1000.0);
    }

    void incarnationReplaced(String queue) {
        queue(queue).replaced.inc();
    }
}
