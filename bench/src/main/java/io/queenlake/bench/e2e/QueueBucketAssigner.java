package io.queenlake.bench.e2e;

import io.queenlake.source.QueueRecord;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.functions.sink.filesystem.BucketAssigner;
import org.apache.flink.streaming.api.functions.sink.filesystem.bucketassigners.SimpleVersionedStringSerializer;

/** FileSink buckets by queue ({@code queue=<name>}), as the lake keeps each queue under its own prefix. */
final class QueueBucketAssigner implements BucketAssigner<QueueRecord, String> {

    @Override
    public String getBucketId(QueueRecord element, Context context) {
        return bucketId(element.queue());
    }

    static String bucketId(String queue) {
        return "queue=" + queue;
    }

    @Override
    public SimpleVersionedSerializer<String> getSerializer() {
        return SimpleVersionedStringSerializer.INSTANCE;
    }
}
