package io.queenlake.connector.metrics;

import java.util.Map;
import org.apache.flink.annotation.Internal;

/**
 * Room for a task manager's metrics in one RPC message. Flink's web UI and REST API read them as
 * one dump no larger than {@code pekko.framesize} (10 MiB by default); past it Flink drops whole
 * kinds, gauges after counters, and the task's backpressure and busy time stand still. Each queue
 * a task manager reads costs about 2.7 KB of that dump: Flink's own gauges for the queue's split
 * (seven per split, {@code split.<queue>.watermark.*}) and the lake's per-queue metrics with an
 * Iceberg table. 5,000 queues need 13.7 MB (QueueMetricsDumpTest), so the default holds about
 * 3,700; the 64 MiB shipped here hold about 24,000 per task manager. The same entry is in
 * flink-conf/config.yaml and k8s-operator/flinkdeployment.yaml (DeploymentFilesTest checks them),
 * and {@code ./queen-lake run} sets it unless its configuration chooses otherwise.
 */
@Internal
public final class MetricDumpFrame {

    private MetricDumpFrame() {}

    /** The largest RPC message, metric dumps included, in bytes. */
    public static final long BYTES = 64L * 1024 * 1024;

    /** Flink key to value. */
    public static final Map<String, String> SETTINGS = Map.of("pekko.framesize", BYTES + "b");
}
