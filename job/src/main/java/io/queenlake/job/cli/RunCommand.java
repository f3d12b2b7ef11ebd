package io.queenlake.job.cli;

import io.queenlake.job.config.LakeSettings;
import io.queenlake.job.config.Setting;
import io.queenlake.job.config.StartProbe;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.jobmaster.JobResult;

/**
 * {@code ./queen-lake run}: the job on a local MiniCluster in this JVM, with the Flink web UI on
 * {@code --web-port} (default 8081). Settings as for {@code flink run}: job arguments such as
 * {@code --queues orders}, or the {@code QUEEN_*} variables. With {@code --state-dir DIR}
 * checkpoints are retained there and a restart resumes from the newest complete one; without it a
 * restart resumes from the KV commit pointers. Runs until Ctrl-C or SIGTERM, then cancels the job
 * cleanly (the lease is released, retained checkpoints stay) and exits 0; a job that fails for good
 * ends the run with its cause. A state folder that is a file or a web port that is taken is refused
 * before anything starts.
 */
final class RunCommand implements Subcommand {

    static final int DEFAULT_WEB_PORT = 8081;
    static final Duration CHECKPOINT_INTERVAL = Duration.ofSeconds(10);

    /** The web UI's port, shared with {@code demo}. */
    static final CliOption WEB_PORT = CliOption.option("web-port", "P",
            "the port of the Flink web UI and REST API; 0 picks a free one").byDefault(DEFAULT_WEB_PORT);

    private static final List<CliOption> OPTIONS = List.of(
            WEB_PORT,
            CliOption.option("state-dir", "DIR", "retain checkpoints in DIR and resume from the newest complete one;"
                    + " without it a restart resumes from the KV commit pointers"),
            CliOption.option("checkpoint-ms", "MS", "the checkpoint interval in ms").byDefault(CHECKPOINT_INTERVAL.toMillis()));

    private static final Help HELP = new Help(
            "run the job on a local MiniCluster in this JVM, with the Flink web UI, until Ctrl-C",
            OPTIONS, " --queues Q --bucket B [--setting value ...]", List.of(
                    Usage.settings("the job's settings, as for flink run: --name value or the QUEEN_* variable (the"
                            + " argument wins); the common ones:", Setting.QUEUES, Setting.BUCKET, Setting.ENDPOINT,
                            Setting.PATH_STYLE, Setting.ACCESS_KEY, Setting.SECRET_KEY, Setting.QUEEN_URL,
                            Setting.QUEEN_TOKEN, Setting.START),
                    Usage.everySetting("every setting, with its variable, its default and what it allows (README.md,"
                            + " section Settings, has the same table):"),
                    "the log: the settings in force and where to look go to stdout; the job's log (Flink, the source,"
                            + " the sink) goes to stderr, our lines from INFO, the frameworks' from WARN."));

    @Override
    public Help help() {
        return HELP;
    }

    @Override
    public int run(String[] args) throws Exception {
        JobSettingsArgs parsed = JobSettingsArgs.split("run", args, OPTIONS);
        int webPort = parsed.own().intValue("web-port", 0, 65535);
        String given = parsed.own().get("state-dir");
        long checkpointMs = parsed.own().longValue("checkpoint-ms", 100, 3_600_000);
        Path stateDir = given == null ? null : LauncherChecks.stateDir("run", given);
        LauncherChecks.freePort("run", "web-port", webPort);
        Map<String, String> env = System.getenv();
        LakeSettings settings = parsed.settings(env, new Configuration());
        System.out.println(settings.describe());
        Configuration conf = LauncherFileSystems.initialize(new Configuration(), settings);
        UntilStopped stop = UntilStopped.watch("queen-lake run", "queen-lake stopped");
        StartProbe.check(settings);
        LocalRun run = LocalRun.start(settings, conf, webPort, stateDir, Duration.ofMillis(checkpointMs));
        stop.closes(run);
        System.out.println("queen-lake is running " + settings.jobName());
        System.out.println("  web UI: " + run.webUrl());
        System.out.println(run.restoredFrom()
                .map(r -> "  resumed from retained checkpoint " + r.dir())
                .orElse(stateDir == null
                        ? "  no --state-dir: started without Flink state, continuing from the KV commit pointers"
                        : "  no complete checkpoint in " + stateDir
                                + " yet: started from the KV commit pointers; checkpoints are retained there"));
        System.out.println("  Ctrl-C to stop");
        CompletableFuture<JobResult> end = run.end();
        CompletableFuture.anyOf(end, stop.requested()).join();
        if (stop.requested().isDone()) {
            System.out.println("stopping on " + stop.requested().join() + "...");
            stop.close();
            return 0;
        }
        JobResult result = end.join();
        stop.closeSilently();
        if (result.getJobStatus().filter(status -> status == JobStatus.CANCELED).isPresent()) {
            return 0;
        }
        if (!result.isSuccess() && result.getSerializedThrowable().isPresent()) {
            Throwable cause = result.getSerializedThrowable().get().deserializeError(getClass().getClassLoader());
            throw new IllegalStateException("the job failed: " + rootMessage(cause), cause);
        }
        return 0;
    }

    static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.toString() : root.getMessage();
    }
}
