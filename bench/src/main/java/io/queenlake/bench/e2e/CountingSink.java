package io.queenlake.bench.e2e;

import io.queenlake.source.QueueRecord;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

/**
 * The ceiling's sink: drops every record after counting it in a counter of this JVM named by the
 * run (the MiniCluster runs in the benchmark's JVM), so the benchmark sees when the corpus is read.
 */
final class CountingSink implements Sink<QueueRecord> {

    private static final Map<String, LongAdder> COUNTERS = new ConcurrentHashMap<>();

    private final String run;

    CountingSink(String run) {
        this.run = run;
    }

    static long count(String run) {
        LongAdder counter = COUNTERS.get(run);
        return counter == null ? 0 : counter.sum();
    }

    @Override
    public SinkWriter<QueueRecord> createWriter(WriterInitContext context) {
        LongAdder counter = COUNTERS.computeIfAbsent(run, r -> new LongAdder());
        return new SinkWriter<>() {
            @Override
            public void write(QueueRecord element, Context ctx) {
                counter.increment();
            }

            @Override
            public void flush(boolean endOfInput) {}

            @Override
            public void close() {}
        };
    }
}
