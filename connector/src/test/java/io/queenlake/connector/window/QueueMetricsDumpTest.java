package io.queenlake.connector.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.connector.metrics.LakeMetrics;
import io.queenlake.connector.metrics.MetricDumpFrame;
import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.model.Layout;
import io.queenlake.source.metrics.QueenSourceMetrics;
import io.queenlake.source.split.QueueSplit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.metrics.CharacterFilter;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.Meter;
import org.apache.flink.metrics.Metric;
import org.apache.flink.runtime.clusterframework.types.ResourceID;
import org.apache.flink.runtime.executiongraph.ExecutionAttemptID;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.metrics.NoOpMetricRegistry;
import org.apache.flink.runtime.metrics.dump.MetricDumpSerialization;
import org.apache.flink.runtime.metrics.dump.QueryScopeInfo;
import org.apache.flink.runtime.metrics.groups.AbstractMetricGroup;
import org.apache.flink.runtime.metrics.groups.InternalOperatorMetricGroup;
import org.apache.flink.runtime.metrics.groups.InternalSourceReaderMetricGroup;
import org.apache.flink.runtime.metrics.groups.InternalSourceSplitMetricGroup;
import org.apache.flink.runtime.metrics.groups.TaskManagerMetricGroup;
import org.apache.flink.runtime.metrics.groups.TaskMetricGroup;
import org.apache.flink.util.clock.SystemClock;
import org.junit.jupiter.api.Test;

/**
 * The web UI and the REST API read a task manager's metrics as one dump, no larger than the RPC
 * frame ({@code pekko.framesize}); past it Flink drops whole kinds, gauges after counters, so a
 * job with thousands of queues would lose the task's backpressure and busy gauges. Flink's own
 * per-split gauges alone outgrow the default 10 MiB at about 5,000 queues, so the lake ships a
 * larger frame ({@link MetricDumpFrame}): the dump of a task manager holding 20,000 queues, with
 * Flink's split gauges and the lake's per-queue metrics with their Iceberg tables, fits it.
 */
class QueueMetricsDumpTest {

    private static final int QUEUES = 20_000;
    /** What MetricQueryService does to names. */
    private static final CharacterFilter FILTER = input -> input.replace(' ', '_').replace('.', '-');

    /** Records what the task manager's metric query service would: every metric with its scope. */
    private static final class DumpingRegistry extends NoOpMetricRegistry {
        final Map<Counter, Tuple2<QueryScopeInfo, String>> counters = new HashMap<>();
        final Map<Gauge<?>, Tuple2<QueryScopeInfo, String>> gauges = new HashMap<>();
        final Map<Meter, Tuple2<QueryScopeInfo, String>> meters = new HashMap<>();
        final Map<Histogram, Tuple2<QueryScopeInfo, String>> histograms = new HashMap<>();

        @Override
        public void register(Metric metric, String name, AbstractMetricGroup<?> group) {
            Tuple2<QueryScopeInfo, String> at = Tuple2.of(group.getQueryServiceMetricInfo(FILTER), FILTER.filterCharacters(name));
            if (metric instanceof Counter c) {
                counters.put(c, at);
            } else if (metric instanceof Gauge<?> g) {
                gauges.put(g, at);
            } else if (metric instanceof Meter m) {
                meters.put(m, at);
            } else if (metric instanceof Histogram h) {
                histograms.put(h, at);
            }
        }
    }

    @Test
    void theMetricDumpOfATaskManagerWith20000QueuesAndTheirTablesFitsTheShippedFrameGaugesIncluded() {
        DumpingRegistry registry = new DumpingRegistry();
        TaskManagerMetricGroup tm = TaskManagerMetricGroup.createTaskManagerMetricGroup(registry, "taskmanager-0",
                ResourceID.generate());
        JobID job = new JobID();
        var jobGroup = tm.addJob(job, "queen-lake");
        for (int subtask = 0; subtask < 2; subtask++) {
            TaskMetricGroup source = jobGroup.addTask(ExecutionAttemptID.randomId(),
                    "Source: Queen source -> Broker-clock windows -> Lake sink: Writer");
            InternalOperatorMetricGroup sourceOperator = source.getOrAddOperator(new OperatorID(), "Source: Queen source", Map.of());
            QueenSourceMetrics reader = new QueenSourceMetrics(InternalSourceReaderMetricGroup.wrap(sourceOperator));
            WindowMetrics windows = new WindowMetrics(
                    source.getOrAddOperator(new OperatorID(), "Broker-clock windows", Map.of()));
            TaskMetricGroup commit = jobGroup.addTask(ExecutionAttemptID.randomId(), "Lake sink: Committer");
            InternalOperatorMetricGroup committer = commit.getOrAddOperator(new OperatorID(), "Lake sink: Committer", Map.of());
            LakeMetrics lake = new LakeMetrics(committer);
            for (int q = subtask; q < QUEUES; q += 2) {
                String queue = "queue-" + q + "-of-a-broker-with-thousands";
                // Flink's SourceOperator gives every split (here one per queue) a group of seven gauges of its own.
                InternalSourceSplitMetricGroup.wrap(sourceOperator, SystemClock.getInstance(),
                        QueueSplit.splitId(queue), () -> 0L);
                reader.fetched(10, 1_000);
                windows.of(queue).bufferedBytes(1_000);
                lake.recordCommitted(new Manifest("default", "default", queue, 1, 0, 1, "jsonl", "zstd", Layout.MERGED,
                        List.of(), 10, 1_000, 1, 0, 0, List.of(), "queen-lake/0.1.0 jsonl+zstd", 0L));
                lake.recordTableAppend(queue, 1, true, 40); // with an Iceberg catalog, its six more
            }
        }
        MetricDumpSerialization.MetricSerializationResult dump = new MetricDumpSerialization.MetricDumpSerializer()
                .serialize(registry.counters, registry.gauges, registry.histograms, registry.meters);
        long bytes = dump.serializedCounters.length + dump.serializedMeters.length + dump.serializedGauges.length
                + dump.serializedHistograms.length;
        System.out.printf("metric dump of %,d queues: %,d counters (%,d B), %,d gauges (%,d B), %,d meters (%,d B): %,d B%n",
                QUEUES, dump.numCounters, dump.serializedCounters.length, dump.numGauges,
                dump.serializedGauges.length, dump.numMeters, dump.serializedMeters.length, bytes);
        assertThat(bytes).as("the dump, gauges included, under the shipped frame").isLessThan(MetricDumpFrame.BYTES);
    }
}
