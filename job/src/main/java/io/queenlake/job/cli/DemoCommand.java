package io.queenlake.job.cli;

import java.nio.file.Path;
import java.util.List;

/**
 * {@code ./queen-lake demo [--web-port P]}: starts {@link Demo} and runs until Ctrl-C or SIGTERM,
 * then stops every part cleanly and exits 0. Ports that are taken are refused before anything starts. The console shows the demo's own lines; the job's log is in a file.
 */
final class DemoCommand implements Subcommand {

    private static final List<CliOption> OPTIONS = List.of(
            RunCommand.WEB_PORT,
            CliOption.option("dir", "DIR", "the demo's folder: the broker's data, the bucket, the job's log")
                    .byDefault(Demo.DEFAULT_DIR),
            CliOption.option("broker-port", "P", "the dev broker's port; 0 picks a free one").byDefault(6632),
            CliOption.option("window-ms", "MS", "the window size in ms").byDefault(5_000));

    private static final Help HELP = new Help(
            "the one-command tour: a dev broker, an embedded S3 server, the job with its web UI, sample orders,"
                    + " a line per commit",
            OPTIONS, "", List.of("the console shows where to look and a line per committed window; the job's log"
                    + " (Flink, the source, the sink) goes to DIR/" + Demo.LOG_FILE + ". A second demo in the same DIR"
                    + " continues the first one's lake. Ctrl-C stops it."));

    @Override
    public Help help() {
        return HELP;
    }

    @Override
    public int run(String[] args) throws Exception {
        CommandArgs a = CommandArgs.parse("demo", args, OPTIONS);
        Demo.Options options = new Demo.Options(
                Path.of(a.get("dir")),
                a.intValue("web-port", 0, 65535),
                a.intValue("broker-port", 0, 65535),
                a.longValue("window-ms", 100, 3_600_000));
        LauncherChecks.freePort("demo", "web-port", options.webPort());
        LauncherChecks.freePort("demo", "broker-port", options.brokerPort());
        UntilStopped stop = UntilStopped.watch("demo", "demo stopped; the lake stays in " + options.dir().toAbsolutePath());
        stop.closes(Demo.start(options, System.out::println));
        System.out.println("stopping the demo on " + stop.requested().join() + "...");
        stop.close();
        return 0;
    }
}
