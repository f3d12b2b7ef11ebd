package io.queenlake.job.cli;

import io.queenlake.broker.kv.CommitPointers;
import io.queenlake.devstack.broker.DevBroker;
import io.queenlake.devstack.broker.DevBrokerOptions;
import io.queenlake.devstack.catalog.DevCatalog;
import io.queenlake.devstack.catalog.DevCatalogOptions;
import io.queenlake.devstack.s3.EmbeddedS3;
import io.queenlake.devstack.s3.EmbeddedS3Options;
import io.queenlake.job.config.LakeSettings;
import io.queenlake.job.config.SettingsLoader;
import io.queenlake.iceberg.CatalogLink;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.flink.configuration.Configuration;

/**
 * The one-command tour: the dev broker (its log and KV kept in {@code <dir>/broker}), the embedded
 * S3 server with the bucket {@value #BUCKET} in the folder {@code <dir>/s3/lake}, the job on a
 * local MiniCluster with the web UI, a steady trickle of sample orders into two queues, and a line
 * each time a window commits. Its own lines (where to look, the commits) are all the console
 * shows: the log of the job and the dev stack goes to {@code <dir>/}{@value #LOG_FILE}, named in
 * its first line, so a commit is not told twice. Everything lives in one folder, so a second demo
 * continues the first one's lake from its commit pointers. {@link #close()} stops the parts in
 * reverse order, the log's redirection last.
 */
final class Demo implements AutoCloseable {

    static final List<String> QUEUES = List.of("orders", "payments");
    static final String BUCKET = "lake";
    static final String DEFAULT_DIR = ".queen-lake/demo";
    static final String LOG_FILE = "job.log";
    private static final String ACCESS_KEY = "queen-lake-demo";
    private static final String SECRET_KEY = "queen-lake-demo-secret";

    /**
     * @param windowMs the window size; short, so the first commit shows within seconds
     * @param brokerPort 0 picks a free port
     * @param webPort 0 picks a free port
     */
    record Options(Path dir, int webPort, int brokerPort, long windowMs) {}

    private final List<AutoCloseable> parts = new ArrayList<>();
    private LocalRun run;
    private EmbeddedS3 s3;
    private DevCatalog catalog;
    private DevBroker broker;

    private Demo() {}

    static Demo start(Options options, Consumer<String> out) throws Exception {
        Demo demo = new Demo();
        try {
            demo.startParts(options, out);
            return demo;
        } catch (Exception | Error e) {
            // An Error too (a class missing from the launcher's class path): the broker's threads would keep the JVM up.
            try {
                demo.close();
            } catch (Exception closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
    }

    private void startParts(Options options, Consumer<String> out) throws Exception {
        Path dir = options.dir().toAbsolutePath();
        JobLog log = JobLog.toFile(dir.resolve(LOG_FILE));
        parts.add(log);
        out.accept("queen-lake demo: starting in " + dir + "; the log of the job (Flink, the source, the sink) goes to "
                + log.path());
        broker = DevBroker.start(DevBrokerOptions.builder().host("127.0.0.1").port(options.brokerPort())
                .dataDir(dir.resolve("broker")).build());
        parts.add(broker);
        s3 = EmbeddedS3.start(EmbeddedS3Options.builder().port(0).dir(dir.resolve("s3")).accessKey(ACCESS_KEY)
                .secretKey(SECRET_KEY).bucket(BUCKET).build());
        parts.add(s3);
        catalog = DevCatalog.start(DevCatalogOptions.builder().s3(s3).dataDir(dir.resolve("catalog")).port(0).build());
        parts.add(catalog);
        LakeSettings settings = settings(options);
        Configuration conf = LauncherFileSystems.initialize(new Configuration(), settings);
        run = LocalRun.start(settings, conf, options.webPort(), null, Duration.ofSeconds(2));
        parts.add(run);
        CommitPointers pointers = new CommitPointers(settings.lakeSink().config().newClient(), settings.sink());
        parts.add(new DemoProducer(settings.lakeSink().config().newClient(), QUEUES, 500, "demo-" + Long.toString(
                System.currentTimeMillis(), 36)).start());
        out.accept("queen-lake demo is running: queues " + String.join(" and ", QUEUES) + " get a few orders every 0.5 s,"
                + " windows of " + options.windowMs() / 1000.0 + " s");
        out.accept("  Flink web UI:   " + run.webUrl());
        out.accept("  dev broker:     " + broker.url() + "  (./queen-lake push --url " + broker.url() + " --queue orders)");
        out.accept("  bucket folder:  " + s3.bucketDir() + "  (S3 API on " + s3.endpoint() + ", path-style)");
        out.accept("  Iceberg catalog: " + catalog.url() + "  (REST, warehouse " + catalog.warehouse() + "; tables "
                + CatalogLink.NAME + ".queen.orders and " + CatalogLink.NAME + ".queen.payments, one append per window)");
        out.accept("  read it with DuckDB:");
        out.accept("    " + duckDbQuery(s3.bucketDir(), settings));
        out.accept("  or as an Iceberg table (Trino or Spark on the REST catalog above, s3.endpoint " + s3.endpoint()
                + ", path-style): SELECT count(*) FROM " + CatalogLink.NAME + ".queen.orders");
        out.accept("  check it: ./queen-lake verify --queue orders --queen-url " + broker.url() + " --endpoint "
                + s3.endpoint() + " --bucket " + BUCKET + " --path-style true --access-key " + ACCESS_KEY
                + " --secret-key " + SECRET_KEY + " --format parquet --iceberg-catalog rest --iceberg-uri " + catalog.url());
        out.accept("  Ctrl-C to stop");
        parts.add(new CommitWatcher(pointers, QUEUES, s3.bucketDir(), settings.prefix(), settings.tenant(), out).start());
    }

    private LakeSettings settings(Options options) {
        List<String> args = List.of(
                "--queues", String.join(",", QUEUES),
                "--endpoint", s3.endpoint().toString(),
                "--region", EmbeddedS3.REGION,
                "--bucket", BUCKET,
                "--access-key", ACCESS_KEY,
                "--secret-key", SECRET_KEY,
                "--path-style", "true",
                "--format", "parquet",
                "--iceberg-catalog", "rest",
                "--iceberg-uri", catalog.url().toString(),
                "--iceberg-warehouse", catalog.warehouse(),
                "--queen-url", broker.url().toString(),
                "--start", "earliest",
                "--max-window-ms", Long.toString(options.windowMs()),
                "--safe-guard-ms", "500",
                "--discovery-interval-ms", "500",
                "--lease-ttl-ms", "3000",
                "--instance", "queen-lake-demo");
        // The demo is self-contained: the caller's QUEEN_* variables do not reach it.
        return SettingsLoader.load(Map.of(), args.toArray(String[]::new), new Configuration());
    }

    java.net.URI brokerUrl() {
        return broker.url();
    }

    Path bucketDir() {
        return s3.bucketDir();
    }

    java.net.URI webUrl() {
        return run.webUrl();
    }

    static String duckDbQuery(Path bucketDir, LakeSettings settings) {
        return "duckdb -c \"SELECT queue, count(*) AS records, max(ts) AS newest FROM read_parquet('" + bucketDir + "/"
                + settings.prefix().value() + "/tenant=*/queue=*/dt=*/hour=*/*." + settings.writer().format().extension()
                + "', hive_partitioning=true) GROUP BY queue ORDER BY queue\"";
    }

    /** Stops the commit watcher, the producer, the job (cancelled, leases released), the catalog, S3 and the broker. */
    @Override
    public void close() throws Exception {
        Exception first = null;
        for (int i = parts.size() - 1; i >= 0; i--) {
            try {
                parts.get(i).close();
            } catch (Exception e) {
                first = first == null ? e : first;
            }
        }
        parts.clear();
        if (first != null) {
            throw first;
        }
    }
}
