package io.queenlake.connector.window;

import java.util.HashMap;
import java.util.Map;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;

/**
 * The window operator's metrics: per queue (a {@code queue} subgroup, a Prometheus label) only
 * {@value #BUFFERED_BYTES}, the payload bytes in its open windows; for the operator as a whole
 * {@value #LATE_RECORDS} (records that broke their queue's frontier promise),
 * {@value #RECORDS_BELOW_POINTER} (records dropped because a committed window already holds them)
 * and {@value #PAYLOADS_REWRITTEN} (payloads the lake holds as a JSON string of their lossy UTF-8
 * because they were not one JSON text). Those three are rare events, each logged with its queue,
 * partition and offset; counted per queue they would cost the metric dump three counters a queue,
 * which at thousands of queues crowds the task's own gauges out of it (QueueMetricsDumpTest).
 */
final class WindowMetrics {

    static final String QUEUE_GROUP = "queue";
    static final String BUFFERED_BYTES = "bufferedBytes";
    static final String LATE_RECORDS = "lateRecords";
    static final String RECORDS_BELOW_POINTER = "recordsBelowPointer";
    static final String PAYLOADS_REWRITTEN = "payloadsRewritten";

    private final MetricGroup operatorGroup;
    private final Map<String, Queue> queues = new HashMap<>();
    private final Counter lateRecords;
    private final Counter recordsBelowPointer;
    private final Counter payloadsRewritten;

    WindowMetrics(MetricGroup operatorGroup) {
        this.operatorGroup = operatorGroup;
        this.lateRecords = operatorGroup.counter(LATE_RECORDS);
        this.recordsBelowPointer = operatorGroup.counter(RECORDS_BELOW_POINTER);
        this.payloadsRewritten = operatorGroup.counter(PAYLOADS_REWRITTEN);
    }

    Queue of(String queue) {
        return queues.computeIfAbsent(queue, q -> new Queue(operatorGroup.addGroup(QUEUE_GROUP, q)));
    }

    long lateRecords() {
        return lateRecords.getCount();
    }

    long recordsBelowPointer() {
        return recordsBelowPointer.getCount();
    }

    long payloadsRewritten() {
        return payloadsRewritten.getCount();
    }

    /**
     * One queue's gauge, reading the value the operator keeps in step with its open windows; its
     * events count into the operator's totals.
     */
    final class Queue {
        private volatile long bufferedBytes;

        private Queue(MetricGroup group) {
            group.gauge(BUFFERED_BYTES, () -> bufferedBytes);
        }

        void bufferedBytes(long bytes) {
            bufferedBytes = bytes;
        }

        long bufferedBytes() {
            return bufferedBytes;
        }

        void lateRecord() {
            lateRecords.inc();
        }

        void recordBelowPointer() {
            recordsBelowPointer.inc();
        }

        void payloadRewritten() {
            payloadsRewritten.inc();
        }
    }
}
