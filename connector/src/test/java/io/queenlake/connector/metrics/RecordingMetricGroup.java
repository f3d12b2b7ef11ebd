package io.queenlake.connector.metrics;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;

/**
 * A metric group that records every counter and gauge under its key/value path, e.g.
 * {@code queue=orders.lagSeconds}, so a test reads what {@link LakeMetrics} registered.
 */
public final class RecordingMetricGroup extends UnregisteredMetricsGroup {

    private final String path;
    private final Map<String, Metric> registered;

    public RecordingMetricGroup() {
        this("", new ConcurrentHashMap<>());
    }

    private RecordingMetricGroup(String path, Map<String, Metric> registered) {
        this.path = path;
        this.registered = registered;
    }

    /** The metric registered under {@code path}, or null. */
    public Metric get(String path) {
        return registered.get(path);
    }

    @Override
    public MetricGroup addGroup(String key, String value) {
        return new RecordingMetricGroup(path + key + "=" + value + ".", registered);
    }

    @Override
    public Counter counter(String name) {
        return counter(name, new SimpleCounter());
    }

    @Override
    public <C extends Counter> C counter(String name, C counter) {
        registered.put(path + name, counter);
        return counter;
    }

    @Override
    public <T, G extends Gauge<T>> G gauge(String name, G gauge) {
        registered.put(path + name, gauge);
        return gauge;
    }
}
