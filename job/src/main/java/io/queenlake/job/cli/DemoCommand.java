package io.queenlake.job.cli;

import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/**
 * {@code ./queen-lake demo [--web-port P]}: starts {@link Demo} and runs until Ctrl-C, then stops
 * every part cleanly.
 */
final class DemoCommand implements Subcommand {

    @Override
    public String summary() {
        return "the one-command tour (dev broker, embedded S3, the job with its web UI, sample orders):"
                + " [--web-port 8081] [--dir ./.queen-lake/demo] [--broker-port 6632] [--window-ms 5000]";
    }

    @Override
    public int run(String[] args) throws Exception {
        CommandArgs a = CommandArgs.parse("demo", args, Set.of("web-port", "dir", "broker-port", "window-ms"), Set.of());
        Demo.Options options = new Demo.Options(
                Path.of(a.get("dir", ".queen-lake/demo")),
                a.intValue("web-port", RunCommand.DEFAULT_WEB_PORT, 0, 65535),
                a.intValue("broker-port", 6632, 0, 65535),
                a.longValue("window-ms", 5_000, 100, 3_600_000));
        Demo demo = Demo.start(options, System.out::println);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("stopping the demo...");
            try {
                demo.close();
                System.out.println("demo stopped; the lake stays in " + options.dir().toAbsolutePath());
            } catch (Exception e) {
                System.err.println("demo: error while stopping: " + e.getMessage());
            }
            stopped.countDown();
        }, "queen-lake-demo-shutdown"));
        stopped.await();
        return 0;
    }
}
