package io.queenlake.bench.e2e;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.checkpoint.CheckpointStatsSnapshot;
import org.apache.flink.runtime.checkpoint.CompletedCheckpointStats;
import org.apache.flink.runtime.checkpoint.TaskStateStats;
import org.apache.flink.runtime.executiongraph.AccessExecutionGraph;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * One MiniCluster in this JVM running one benchmark job: one task manager with as many slots as the
 * job's parallelism, exactly-once checkpoints in memory at a fixed interval. It owns the cluster's
 * life and reads the job's checkpoint statistics (what the REST API's checkpoints page shows).
 */
final class BenchCluster implements AutoCloseable {

    private final MiniCluster cluster;
    private JobID job;

    private BenchCluster(MiniCluster cluster) {
        this.cluster = cluster;
    }

    /**
     * The environment a run builds its graph in, named {@code jobName}: checkpointing every
     * {@code interval}, exactly once, into {@code checkpoints} (a backfill's open windows are far
     * larger than the 5 MiB the JobManager's memory would hold).
     */
    static StreamExecutionEnvironment environment(String jobName, int parallelism, Duration interval, Path checkpoints) {
        Configuration conf = new Configuration();
        conf.setString("execution.checkpointing.dir", checkpoints.toUri().toString());
        conf.setString("pipeline.name", jobName);
        conf.setString("execution.checkpointing.interval", interval.toMillis() + " ms");
        conf.setString("execution.checkpointing.mode", "EXACTLY_ONCE");
        conf.setString("restart-strategy.type", "none");
        StreamExecutionEnvironment env = new StreamExecutionEnvironment(conf);
        env.setParallelism(parallelism);
        return env;
    }

    /** Starts a cluster and submits the graph built in {@code env}. */
    static BenchCluster submit(StreamExecutionEnvironment env) throws Exception {
        JobGraph graph = env.getStreamGraph().getJobGraph();
        Configuration conf = new Configuration();
        conf.setString("rest.address", "127.0.0.1");
        conf.setString("rest.bind-address", "127.0.0.1");
        conf.setString("rest.port", "0");
        conf.setString("metrics.reporter.source-progress.factory.class", SourceProgress.Factory.class.getName());
        SourceProgress.reset();
        MiniCluster cluster = new MiniCluster(new MiniClusterConfiguration.Builder()
                .setConfiguration(conf)
                .setNumTaskManagers(1)
                .setNumSlotsPerTaskManager(env.getParallelism())
                .build());
        BenchCluster bench = new BenchCluster(cluster);
        try {
            cluster.start();
            bench.job = cluster.submitJob(graph).get(60, TimeUnit.SECONDS).getJobID();
            return bench;
        } catch (Exception e) {
            cluster.close();
            throw e;
        }
    }

    /** Fails with the job's end when it is no longer running (the run can never finish then). */
    void assertRunning() throws Exception {
        JobStatus status = cluster.getJobStatus(job).get(10, TimeUnit.SECONDS);
        if (status.isGloballyTerminalState()) {
            Throwable cause = cluster.requestJobResult(job).get(10, TimeUnit.SECONDS).getSerializedThrowable()
                    .map(t -> (Throwable) t).orElse(null);
            throw new IllegalStateException("the benchmark job ended " + status + " before the corpus was committed", cause);
        }
    }

    /** The checkpoint statistics of the job so far. */
    CheckpointStatsSnapshot checkpoints() throws Exception {
        return cluster.getExecutionGraph(job).get(10, TimeUnit.SECONDS).getCheckpointStatsSnapshot();
    }

    /** The largest state a completed checkpoint held, in bytes (0 before the first one). */
    long peakStateBytes() throws Exception {
        CheckpointStatsSnapshot stats = checkpoints();
        return stats.getCounts().getNumberOfCompletedCheckpoints() == 0
                ? 0
                : stats.getSummaryStats().getStateSizeStats().getMaximum();
    }

    /** The state of the latest completed checkpoint by task (the chained operators' names), in bytes. */
    Map<String, Long> stateByTask() throws Exception {
        AccessExecutionGraph graph = cluster.getExecutionGraph(job).get(10, TimeUnit.SECONDS);
        CompletedCheckpointStats latest = graph.getCheckpointStatsSnapshot().getHistory().getLatestCompletedCheckpoint();
        Map<String, Long> sizes = new LinkedHashMap<>();
        if (latest != null) {
            for (TaskStateStats task : latest.getAllTaskStateStats()) {
                sizes.put(graph.getJobVertex(task.getJobVertexId()).getName(), task.getStateSize());
            }
        }
        return sizes;
    }

    long completedCheckpoints() throws Exception {
        return checkpoints().getCounts().getNumberOfCompletedCheckpoints();
    }

    /** Cancels the job (the lake sink releases its leases) and stops the cluster. */
    @Override
    public void close() throws Exception {
        try {
            if (job != null && !cluster.getJobStatus(job).get(10, TimeUnit.SECONDS).isGloballyTerminalState()) {
                cluster.cancelJob(job).get(30, TimeUnit.SECONDS);
                cluster.requestJobResult(job).get(60, TimeUnit.SECONDS);
            }
        } finally {
            cluster.close();
        }
    }
}
