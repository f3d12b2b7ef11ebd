package io.queenlake.bench.scale;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Issue 26's scale benchmark: one queen-lake job, started as {@code ./queen-lake run} starts it, on Q
 * queues of the dev broker with a steady trickle per queue, writing to the embedded S3 server;
 * per Q, how long until every queue has its first committed window, how far the commit pointers
 * trail the wall clock in the steady state, whether commits keep up with the windows produced,
 * checkpoint durations, the source's backpressure, S3 requests (and the broker's 429s) per
 * committed window and the job JVM's memory. One {@link ScaleRun} per Q, each on a fresh dev
 * broker and S3 server; a Markdown table per run. Arguments: {@link ScaleOptions#USAGE}.
 */
public final class ScaleBench {

    /**
     * The dev broker's HTTP server (the JDK's) warns through java.util.logging of every HEAD answer
     * it gives with a length (the job's start probe asks one); kept here so the level holds.
     */
    private static final java.util.logging.Logger JDK_HTTP_SERVER = java.util.logging.Logger.getLogger("com.sun.net.httpserver");

    private ScaleBench() {}

    public static void main(String[] args) throws Exception {
        ScaleOptions options;
        try {
            options = ScaleOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("ScaleBench: " + e.getMessage());
            System.exit(2);
            return;
        }
        JDK_HTTP_SERVER.setLevel(java.util.logging.Level.SEVERE);
        System.out.printf(Locale.ROOT, "machine: %d cores, load average %.1f; this JVM's max heap %,d MB; job JVM options %s%n",
                Runtime.getRuntime().availableProcessors(), ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
                Runtime.getRuntime().maxMemory() >> 20, options.jobJavaOpts());
        List<ScaleResult> results = new ArrayList<>();
        int failures = 0;
        for (int queues : options.queueCounts()) {
            try {
                results.add(new ScaleRun(options, queues).run());
            } catch (Exception e) {
                failures++;
                System.out.println("run with " + queues + " queues failed: " + e);
                e.printStackTrace(System.out);
            }
        }
        if (results.size() > 1) {
            System.out.println("## All runs\n");
            for (ScaleResult r : results) {
                System.out.println(r.table());
            }
        }
        System.exit(failures == 0 ? 0 : 1); // S3Proxy's Jetty and the HTTP clients leave threads behind
    }
}
