package io.queenlake.job;

import io.queenlake.job.config.LakeFileSystem;
import io.queenlake.job.config.LakeSettings;
import io.queenlake.job.config.ProbeException;
import io.queenlake.job.config.SettingsException;
import io.queenlake.job.config.SettingsLoader;
import io.queenlake.job.config.StartProbe;
import java.time.Duration;
import java.util.List;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The entry point {@code flink run queen-lake-<version>.jar --queues orders ...} calls: load and
 * validate the settings (job arguments, the cluster's Flink configuration, the environment), log
 * them in one line, probe the broker and the bucket, build the graph and execute it under a name
 * that names the queues. A settings or probe failure ends the program with its one-line message
 * and exit code 2 (settings) or 3 (probe), before anything is submitted.
 */
public final class LakeJob {

    private static final Logger LOG = LoggerFactory.getLogger(LakeJob.class);

    /** Used when the cluster has checkpointing off: the lake commits only at checkpoints. */
    static final Duration DEFAULT_CHECKPOINT_INTERVAL = Duration.ofSeconds(30);

    /** The execution target Flink sets while an application's main runs in the JobManager. */
    static final String APPLICATION_MODE_TARGET = "embedded";

    private LakeJob() {}

    public static void main(String[] args) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        LakeSettings settings;
        try {
            settings = SettingsLoader.load(System.getenv(), args, env.getConfiguration());
        } catch (SettingsException e) {
            exit(env, "queen-lake: " + e.getMessage(), 2);
            return;
        }
        LOG.info(settings.describe());
        LOG.info("queen-lake settings precedence: {}", LakeSettings.precedence());
        settings.argumentSecretsWarning().ifPresent(LOG::warn);
        List<String> notInCluster = LakeFileSystem.missingFromCluster(env.getConfiguration(), settings);
        if (!notInCluster.isEmpty()) {
            LOG.warn("The Flink configuration lacks or differs on {}: the task managers' S3 file system reads s3.*"
                    + " from the cluster's configuration when it starts, not from the job, so set them there as these"
                    + " settings give them (flink-conf/config.yaml), or the lake is written with the cluster's.",
                    String.join(", ", notInCluster));
        }
        try {
            LakeFileSystem.initialize(env.getConfiguration(), settings);
            StartProbe.check(settings);
        } catch (ProbeException e) {
            exit(env, "queen-lake: " + e.getMessage(), 3);
            return;
        }
        try {
            build(env, settings);
        } catch (IllegalArgumentException e) {
            exit(env, "queen-lake: " + e.getMessage(), 2);
            return;
        }
        env.execute(settings.jobName());
    }

    /**
     * Adds the job graph for {@code settings} to {@code env}: QueenSource, broker-clock windows, the
     * lake sink. Turns checkpointing on (exactly once, every 30 s) when the configuration leaves it
     * off, since windows are committed only when a checkpoint completes; refuses at-least-once
     * checkpoints, which could put a replayed record into a window twice.
     */
    public static void build(StreamExecutionEnvironment env, LakeSettings settings) {
        if (!env.getCheckpointConfig().isCheckpointingEnabled()) {
            LOG.info("Checkpointing is off in the Flink configuration; the lake commits at checkpoints, so it is on"
                    + " every {} s (set execution.checkpointing.interval to choose).",
                    DEFAULT_CHECKPOINT_INTERVAL.toSeconds());
            env.enableCheckpointing(DEFAULT_CHECKPOINT_INTERVAL.toMillis(), CheckpointingMode.EXACTLY_ONCE);
        }
        CheckpointingMode mode = env.getCheckpointConfig().getCheckpointingConsistencyMode();
        if (mode != CheckpointingMode.EXACTLY_ONCE) {
            throw new SettingsException("execution.checkpointing.mode=" + mode
                    + " could put a replayed record into a window twice: set it to EXACTLY_ONCE.");
        }
        settings.queenLake().attach(env);
    }

    /**
     * Ends the program with its one-line reason. From {@code flink run} that is an exit code; in
     * application mode (the Kubernetes operator) {@code main} runs inside the JobManager, where an
     * exit would kill the JobManager and loop its pod, so the reason fails the application instead
     * and shows in the deployment's status.
     */
    private static void exit(StreamExecutionEnvironment env, String line, int code) {
        LOG.error(line);
        if (APPLICATION_MODE_TARGET.equals(env.getConfiguration().get(DeploymentOptions.TARGET))) {
            throw new IllegalStateException(line);
        }
        System.err.println(line);
        System.exit(code);
    }
}
