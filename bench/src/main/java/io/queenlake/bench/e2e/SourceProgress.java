package io.queenlake.bench.e2e;

import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

/**
 * How many records the Queen source operators of the running job have emitted, live: a metric
 * reporter that keeps their {@code numRecordsOut} counters (REST and reporters see them only
 * every few seconds). Flink finds the factory through {@code META-INF/services}, and
 * {@link BenchCluster} names it in each run's cluster configuration; one job runs at a time, and
 * each cluster start clears the counters of the last.
 */
public final class SourceProgress implements MetricReporter {

    private static final String SOURCE_OPERATOR = "Source: Queen source";
    private static final List<Counter> EMITTED = new CopyOnWriteArrayList<>();

    static void reset() {
        EMITTED.clear();
    }

    static long emitted() {
        long n = 0;
        for (Counter c : EMITTED) {
            n += c.getCount();
        }
        return n;
    }

    @Override
    public void open(MetricConfig config) {}

    @Override
    public void close() {}

    @Override
    public void notifyOfAddedMetric(Metric metric, String name, MetricGroup group) {
        // The operator's counter, not the task's: a task's numRecordsOut counts its chain's last operator.
        if (name.equals("numRecordsOut") && metric instanceof Counter counter
                && SOURCE_OPERATOR.equals(group.getAllVariables().get("<operator_name>"))) {
            EMITTED.add(counter);
        }
    }

    @Override
    public void notifyOfRemovedMetric(Metric metric, String name, MetricGroup group) {}

    /** What {@code metrics.reporter.<name>.factory.class} names. */
    public static final class Factory implements MetricReporterFactory {
        @Override
        public MetricReporter createMetricReporter(Properties properties) {
            return new SourceProgress();
        }
    }
}
