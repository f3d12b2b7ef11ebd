package io.queenlake.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.broker.client.HttpQueenClient;
import io.queenlake.broker.kv.CommitPointers;
import io.queenlake.broker.kv.ObservedPointer;
import io.queenlake.devstack.broker.DevBroker;
import io.queenlake.devstack.broker.DevBrokerOptions;
import io.queenlake.format.key.Prefix;
import io.queenlake.format.manifest.ManifestJson;
import io.queenlake.connector.verify.FlinkLakeFiles;
import io.queenlake.connector.verify.LakeChecker;
import io.queenlake.connector.verify.LakeReport;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.config.Configurator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo as a newcomer runs it, in-process: with its own 5 s windows the first commit line shows
 * within 25 s, the web UI answers, the bucket folder holds a consistent lake, and it stops cleanly
 * (pointers kept, leases released). Its console shows each of its lines once: the job's log,
 * which tells the commits too, goes to the file its first line names, not to the console.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class DemoITCase {

    @TempDir
    Path dir;

    @Test
    void theFirstWindowCommitsWithinSecondsAndTheLakeIsConsistent() throws Exception {
        List<String> lines = new CopyOnWriteArrayList<>();
        Path log = dir.resolve("demo").resolve(Demo.LOG_FILE).toAbsolutePath();
        long started = System.nanoTime();
        // Our classes log at INFO, as the launcher's logging configuration has it, so the commits are in the log too.
        Level level = LogManager.getLogger("io.queenlake").getLevel();
        Configurator.setLevel("io.queenlake", Level.INFO);
        try (Demo demo = Demo.start(new Demo.Options(dir.resolve("demo"), 0, 0, 5_000), lines::add)) {
            assertThat(lines.get(0)).as("the first line names the job's log").endsWith("goes to " + log);
            assertThat(JobLogTest.consoleAppenders()).as("console appenders while the demo runs").isZero();
            assertThat(lines).anyMatch(l -> l.startsWith("  Flink web UI:   http://127.0.0.1:"))
                    .anyMatch(l -> l.contains("read_parquet('" + demo.bucketDir()))
                    .anyMatch(l -> l.startsWith("  Iceberg catalog: http://127.0.0.1:"));
            long deadline = started + TimeUnit.SECONDS.toNanos(25);
            while (lines.stream().noneMatch(l -> l.startsWith("committed window k=1 of queue "))) {
                assertThat(System.nanoTime()).as("a commit line within 25 s; printed so far:\n%s", String.join("\n", lines))
                        .isLessThan(deadline);
                Thread.sleep(100);
            }
            HttpResponse<String> ui = HttpClient.newHttpClient().send(HttpRequest.newBuilder(demo.webUrl()).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(ui.statusCode()).isEqualTo(200);
            assertThat(ui.body()).as("the web dashboard (flink-runtime-web) is served").containsIgnoringCase("<html");

            CommitPointers pointers = new CommitPointers(HttpQueenClient.builder().baseUrl(demo.brokerUrl().toString()).build(),
                    "default");
            LakeChecker checker = new LakeChecker(new FlinkLakeFiles(demo.bucketDir().toUri().toString()), Prefix.DEFAULT);
            for (String queue : Demo.QUEUES) {
                ObservedPointer pointer = pointers.read(queue);
                LakeReport report = checker.check(ManifestJson.DEFAULT_TENANT, queue, pointer.pointer().orElse(null));
                assertThat(report.problems()).as("%s", report).isEmpty();
            }
            assertThat(lines).anyMatch(l -> l.matches("committed window k=1 of queue '(orders|payments)': \\d+ records in 1 object\\(s\\), \\d+ bytes, .*"));
            assertThat(lines).as("the demo's console").doesNotHaveDuplicates();
        } finally {
            Configurator.setLevel("io.queenlake", level);
        }
        // Every commit the console told once is in the job's log, where the committer tells it too.
        String jobLog = Files.readString(log);
        Pattern told = Pattern.compile("committed window k=(\\d+) of queue '([a-z]+)'.*");
        for (String line : lines) {
            Matcher commit = told.matcher(line);
            if (commit.matches()) {
                assertThat(jobLog).as("the job's log").contains("window committed queue=" + commit.group(2) + " k="
                        + commit.group(1) + " ");
            }
        }
        assertThat(jobLog).as("the job's log: each queue is an Iceberg table too").contains("window appended to Iceberg table queen.");
        // Stopped cleanly: the broker's state kept the pointers, and the job released its leases on the way out.
        try (DevBroker again = DevBroker.start(DevBrokerOptions.builder().dataDir(dir.resolve("demo/broker")).build())) {
            CommitPointers pointers = new CommitPointers(HttpQueenClient.builder().baseUrl(again.url().toString()).build(),
                    "default");
            for (String queue : Demo.QUEUES) {
                assertThat(pointers.read(queue).k()).as("committed k of %s after the demo", queue).isPositive();
                assertThat(pointers.holder(queue)).as("the lease of %s after the demo", queue).startsWith("no lease holder");
            }
        }
    }
}
