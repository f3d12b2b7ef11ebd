package io.queenlake.connector.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.broker.client.HttpQueenClient;
import io.queenlake.broker.client.PushItem;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.kv.CommitPointers;
import io.queenlake.broker.kv.ObservedPointer;
import io.queenlake.devstack.broker.DevBroker;
import io.queenlake.devstack.broker.DevBrokerOptions;
import io.queenlake.format.key.Prefix;
import io.queenlake.format.manifest.ManifestJson;
import io.queenlake.format.model.Align;
import io.queenlake.connector.pipeline.LakePipeline;
import io.queenlake.connector.sink.LakeSink;
import io.queenlake.connector.verify.FlinkLakeFiles;
import io.queenlake.connector.verify.LakeChecker;
import io.queenlake.connector.verify.LakeReport;
import io.queenlake.connector.window.WindowSettings;
import io.queenlake.source.QueenSource;
import io.queenlake.source.StartMode;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole job on a MiniCluster with Flink's Prometheus reporter: once the pushed records are
 * committed, a scrape of {@code /metrics} shows the lake metrics and the source's metrics of each
 * queue under a {@code queue} label, with the values the lake itself holds.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class PrometheusMetricsITCase {

    private static final int PROMETHEUS_PORT = freePort();
    private static final String SINK = "prom";
    private static final Map<String, Integer> PUSHED = new LinkedHashMap<>(Map.of("orders", 30, "refunds", 12));

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setConfiguration(prometheus())
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(2)
            .build());

    @TempDir
    static Path dir;

    private static DevBroker broker;
    private static QueenClient client;

    private static Configuration prometheus() {
        Configuration conf = new Configuration();
        conf.setString("metrics.reporter.prom.factory.class",
                "org.apache.flink.metrics.prometheus.PrometheusReporterFactory");
        conf.setString("metrics.reporter.prom.port", Integer.toString(PROMETHEUS_PORT));
        return conf;
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free port for the Prometheus reporter", e);
        }
    }

    @BeforeAll
    static void startBroker() throws Exception {
        broker = DevBroker.start(DevBrokerOptions.builder().build());
        client = HttpQueenClient.builder().baseUrl(broker.url().toString()).build();
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    @Test
    void aCommittedWindowShowsInPrometheusUnderItsQueueLabelWithTheLakesValues() throws Exception {
        for (Map.Entry<String, Integer> queue : PUSHED.entrySet()) {
            List<PushItem> items = new ArrayList<>();
            for (int i = 0; i < queue.getValue(); i++) {
                items.add(PushItem.of(queue.getKey(), "p-" + (i % 3), queue.getKey() + "-" + i, "{\"n\":" + i + "}"));
            }
            client.push(items);
        }
        String root = dir.toUri().toString() + "lake";
        JobClient job = startJob(root);
        try {
            Map<String, LakeReport> lake = awaitEveryPushedRecordCommitted(root);
            awaitScrapeWith("windowsCommitted", PUSHED.size());
            // The enumerator's lag follows at its next lease round.
            PrometheusScrape scrape = awaitScrapeWith("lagSeconds", PUSHED.size());

            for (String queue : PUSHED.keySet()) {
                LakeReport report = lake.get(queue);
                String where = "queue '" + queue + "' in\n" + scrape.text();
                assertThat(report.problems()).as("%s", report).isEmpty();
                assertThat(sum(scrape, "windowsCommitted", queue)).as(where).isEqualTo(report.committedK()).isGreaterThanOrEqualTo(1);
                assertThat(sum(scrape, "committedK", queue)).as(where).isEqualTo(report.committedK());
                assertThat(sum(scrape, "recordsWritten", queue)).as(where).isEqualTo(PUSHED.get(queue).doubleValue());
                assertThat(sum(scrape, "bytesWritten", queue)).as(where).isEqualTo(report.bytes()).isPositive();
                assertThat(scrape.of("recordsLost", queue)).as(where).isNotEmpty()
                        .allSatisfy(s -> assertThat(s.value()).isZero());
                assertThat(scrape.of("lagSeconds", queue)).as(where).singleElement()
                        .satisfies(s -> assertThat(s.value()).isBetween(0.0, 120.0));
                // Every pushed record is committed and nothing else was pushed: no open window holds a byte.
                assertThat(scrape.of("bufferedBytes", queue)).as(where).singleElement()
                        .satisfies(s -> assertThat(s.value()).isZero());
            }
            // The source's numbers are its reader's totals (per queue they would crowd a large job's
            // metric dump): every pushed record fetched once.
            double pushed = PUSHED.values().stream().mapToDouble(Number::doubleValue).sum();
            assertThat(scrape.samples().stream().filter(s -> s.name().endsWith("_QueenSourceReader_fetchedRecords"))
                    .mapToDouble(PrometheusScrape.Sample::value).sum()).as("%s", scrape.text()).isEqualTo(pushed);
            assertThat(scrape.samples()).as("the source's safeTime gauge in\n%s", scrape.text())
                    .anyMatch(s -> s.name().endsWith("_QueenSourceReader_safeTime") && s.value() > 1.7e12);
        } finally {
            job.cancel().get(30, TimeUnit.SECONDS);
        }
    }

    private static JobClient startJob(String root) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        env.enableCheckpointing(200);
        QueenSource source = QueenSource.builder()
                .brokerUrl(broker.url().toString())
                .queues(List.copyOf(PUSHED.keySet()))
                .sink(SINK)
                .instance("prometheus-itcase")
                .start(StartMode.EARLIEST)
                .safeGuardMs(0)
                .discoveryIntervalMs(100)
                .leaseTtlMs(1_000)
                .maxWindowMs(1_000)
                .requestTimeoutMs(5_000)
                .build();
        WindowSettings windows = new WindowSettings(ManifestJson.DEFAULT_TENANT, SINK, 1_000, Align.HOUR, 1 << 20, 0,
                broker.url().toString(), null, Duration.ofSeconds(5));
        LakeSink sink = LakeSink.builder().root(root).brokerUrl(broker.url().toString()).sinkName(SINK)
                .requestTimeout(Duration.ofSeconds(5)).build();
        LakePipeline.attach(env, source, windows, sink);
        return env.executeAsync("prometheus-metrics-itcase");
    }

    /** Polls the pointers until each queue's committed windows hold every record pushed to it. */
    private static Map<String, LakeReport> awaitEveryPushedRecordCommitted(String root) throws Exception {
        LakeChecker checker = new LakeChecker(new FlinkLakeFiles(root), Prefix.DEFAULT);
        CommitPointers pointers = new CommitPointers(client, SINK);
        Map<String, LakeReport> reports = new LinkedHashMap<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (true) {
            reports.clear();
            for (String queue : PUSHED.keySet()) {
                ObservedPointer pointer = pointers.read(queue);
                reports.put(queue, checker.check(ManifestJson.DEFAULT_TENANT, queue, pointer.pointer().orElse(null)));
            }
            if (PUSHED.entrySet().stream().allMatch(e -> reports.get(e.getKey()).recordsRead() == e.getValue())) {
                return reports;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the pushed records " + PUSHED + " were not all committed within 90 s: " + reports);
            }
            Thread.sleep(100);
        }
    }

    /** Scrapes until {@code metric} shows for {@code queues} queues (a reporter registers metrics as they appear). */
    private static PrometheusScrape awaitScrapeWith(String metric, int queues) throws Exception {
        URI endpoint = URI.create("http://127.0.0.1:" + PROMETHEUS_PORT + "/metrics");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            PrometheusScrape scrape = PrometheusScrape.of(endpoint);
            long seen = PUSHED.keySet().stream()
                    .filter(q -> scrape.of(metric, q).stream().anyMatch(s -> !Double.isNaN(s.value()))).count();
            if (seen == queues) {
                return scrape;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(metric + " did not show for " + queues + " queues within 30 s:\n" + scrape.text());
            }
            Thread.sleep(100);
        }
    }

    private static double sum(PrometheusScrape scrape, String metric, String queue) {
        return scrape.of(metric, queue).stream().mapToDouble(PrometheusScrape.Sample::value).sum();
    }
}
