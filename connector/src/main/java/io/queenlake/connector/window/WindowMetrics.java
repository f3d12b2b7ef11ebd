package io.queenlake.connector.window;

import java.util.HashMap;
import java.util.Map;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;

/**
 * The window operator's metrics, one {@code queue} subgroup per queue (a Prometheus label):
 * {@value #BUFFERED_BYTES} (payload bytes in open windows), {@value #LATE_RECORDS} (records that
 * broke their queue's frontier promise), {@value #RECORDS_BELOW_POINTER} (records dropped because a
 * committed window already holds them) and {@value #PAYLOADS_REWRITTEN} (payloads the lake holds
 * as a JSON string of their lossy UTF-8 because they were not one JSON text, counted as their
 * window closes, so a window closed again after a restart counts again).
 */
final class WindowMetrics {

    static final String QUEUE_GROUP = "queue";
    static final String BUFFERED_BYTES = "bufferedBytes";
    static final String LATE_RECORDS = "lateRecords";
    static final String RECORDS_BELOW_POINTER = "recordsBelowPointer";
    static final String PAYLOADS_REWRITTEN = "payloadsRewritten";

    private final MetricGroup operatorGroup;
    private final Map<String, Queue> queues = new HashMap<>();

    WindowMetrics(MetricGroup operatorGroup) {
        this.operatorGroup = operatorGroup;
    }

    Queue of(String queue) {
        return queues.computeIfAbsent(queue, q -> new Queue(operatorGroup.addGroup(QUEUE_GROUP, q)));
    }

    /** One queue's metrics; the buffered-bytes gauge reads the value the operator keeps in step with its state. */
    static final class Queue {
        private final Counter lateRecords;
        private final Counter recordsBelowPointer;
        private final Counter payloadsRewritten;
        private volatile long bufferedBytes;

        private Queue(MetricGroup group) {
            this.lateRecords = group.counter(LATE_RECORDS);
            this.recordsBelowPointer = group.counter(RECORDS_BELOW_POINTER);
            this.payloadsRewritten = group.counter(PAYLOADS_REWRITTEN);
            group.gauge(BUFFERED_BYTES, () -> bufferedBytes);
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

        long payloadsRewritten() {
            return payloadsRewritten.getCount();
        }

        void bufferedBytes(long bytes) {
            bufferedBytes = bytes;
        }

        long bufferedBytes() {
            return bufferedBytes;
        }

        long lateRecords() {
            return lateRecords.getCount();
        }

        long recordsBelowPointer() {
            return recordsBelowPointer.getCount();
        }
    }
}
