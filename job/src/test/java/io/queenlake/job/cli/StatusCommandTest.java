package io.queenlake.job.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queenlake.broker.client.HttpQueenClient;
import io.queenlake.broker.client.KvExpiry;
import io.queenlake.broker.client.KvOp;
import io.queenlake.broker.client.PushItem;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.client.RawJson;
import io.queenlake.broker.kv.CommitPointers;
import io.queenlake.broker.kv.ObservedPointer;
import io.queenlake.broker.kv.SinkKeys;
import io.queenlake.devstack.broker.DevBroker;
import io.queenlake.devstack.broker.DevBrokerOptions;
import io.queenlake.format.key.Prefix;
import io.queenlake.format.key.SidecarKeys;
import io.queenlake.format.manifest.Committed;
import io.queenlake.format.manifest.LeaseDoc;
import io.queenlake.format.manifest.ManifestJson;
import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.model.Align;
import io.queenlake.format.window.WindowEncoder;
import io.queenlake.job.config.LakeSettings;
import io.queenlake.job.config.SettingsLoader;
import io.queenlake.iceberg.QueueTables;
import io.queenlake.connector.testutils.TestWindows;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./queen-lake status} against the dev broker, whose clock stands at a fixed time so the
 * lag is known: a queue with a pointer and a lease shows k, tEnd, the holder and its lag; a queue
 * with neither says so; a broker that does not answer is one sentence naming what to check. With
 * a catalog (a JDBC one on SQLite here) each queue's Iceberg table is shown against its pointer,
 * and a catalog or settings that fail never hide the broker's lines.
 */
class StatusCommandTest {

    /** 2026-10-03T06:40:00Z on the broker's clock; every stamp and safeTime sits a few microseconds above it. */
    private static final long NOW_MICROS = 1_791_009_600_000_000L;
    private static final String SINK = "st";

    private static DevBroker broker;
    private static QueenClient client;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = DevBroker.start(DevBrokerOptions.builder().clock(() -> NOW_MICROS).build());
        client = HttpQueenClient.builder().baseUrl(broker.url().toString()).build();
        client.push(List.of(PushItem.of("orders", "p", "t-1", "{}"), PushItem.of("refunds", "p", "t-2", "{}")));
        CommitPointers pointers = new CommitPointers(client, SINK);
        // Window 12 ended 90 s before the broker's now.
        Committed committed = new Committed(12, NOW_MICROS - 90_000_000L, "queen/_queen/x/windows/0000000012.json", 30, 2048,
                1_791_009_500_000L);
        assertThat(pointers.move("orders", ObservedPointer.absent(), committed).applied()).isTrue();
        LeaseDoc lease = new LeaseDoc("queen-lake@host-a", "0123456789abcdef", 1_791_009_000_000L);
        client.kv(List.of(KvOp.putIfAbsent(SinkKeys.NAMESPACE, pointers.leaseKey("orders"), RawJson.ofUtf8(lease.toJson()),
                KvExpiry.seconds(30))));
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    private static String status(String... args) throws Exception {
        return status(Map.of(), args);
    }

    /** Status with {@code more} variables beside the broker's and the sink's. */
    private static String status(Map<String, String> more, String... args) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Map<String, String> env = new HashMap<>(more);
        env.put("QUEEN_URL", broker.url().toString());
        env.put("QUEEN_S3_SINK", SINK);
        int exit = new StatusCommand(env, new PrintStream(bytes, true, StandardCharsets.UTF_8)).run(args);
        assertThat(exit).isZero();
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aQueueWithPointerAndLeaseShowsKTEndHolderAndLag() throws Exception {
        String out = status("--queue", "orders");

        assertThat(out).contains("queue 'orders': k=12 tEnd=2026-10-03T06:38:30.000000Z (window k holds 30 records, 2048 bytes)")
                .contains("lease held by instance 'queen-lake@host-a' (incarnation 0123456789abcdef, since 2026-10-03T06:30:00.000000Z,"
                        + " expires 2026-10-03T06:40:30.0000")
                .contains("lag 90.0 s behind safeTime 2026-10-03T06:40:00.0000");
    }

    @Test
    void withLakeAQueueWhoseManifestsRunAheadOfItsPointerIsNamedAsTheKvForgettingNotAnotherWriter(@TempDir Path dir)
            throws Exception {
        for (long k = 1; k <= 3; k++) {
            Path manifest = dir.resolve("lake").resolve(new SidecarKeys(Prefix.DEFAULT, ManifestJson.DEFAULT_TENANT,
                    "refunds").manifest(k));
            Files.createDirectories(manifest.getParent());
            Files.write(manifest, "{}".getBytes(StandardCharsets.UTF_8));
        }

        String out = status(Map.of("QUEEN_S3_BUCKET", "lake", "QUEEN_S3_ENDPOINT", dir.toUri().toString()),
                "--queue", "orders,refunds", "--lake");

        assertThat(out).contains("queue 'refunds': nothing committed yet (no commit pointer)")
                .contains("  lake: the commit pointer is absent but manifests 1..3 exist in the bucket (the broker lost its"
                        + " KV, or someone deleted the pointer; not another writer): the job refuses this queue until"
                        + " `./queen-lake repair-pointer --queue refunds` rebuilds the pointer from the lake");
        assertThat(out.lines().filter(l -> l.startsWith("  lake:"))).as("orders' lake is not ahead of k=12").hasSize(1);
    }

    @Test
    void everyQueueOfTheBrokerIsShownWhenNoneIsNamed() throws Exception {
        String out = status();

        assertThat(out).contains("queue 'orders': k=12")
                .contains("queue 'refunds': nothing committed yet (no commit pointer); lease free (no job mirrors this queue now);"
                        + " safeTime 2026-10-03T06:40:00.0000");
    }

    @Test
    void queuesAreNamedAsRunTakesThemAJsonArrayKeepingACommaInAName() throws Exception {
        String out = status("--queue", "[\"orders\",\"a,b\"]");

        assertThat(out).contains("queue 'orders': k=12").contains("queue 'a,b': nothing committed yet")
                .doesNotContain("queue '[\"orders\"'").doesNotContain("queue 'b\"]'");
        assertThat(status("--queue", "orders, refunds")).contains("queue 'orders': k=12").contains("queue 'refunds': ");
    }

    @Test
    void withACatalogEachQueueShowsItsIcebergTableAgainstItsPointer(@TempDir Path dir) throws Exception {
        String sink = "tables";
        TestWindows world = new TestWindows(List.of("orders"), 4, 5);
        Map<String, String> env = Map.of("QUEEN_S3_FORMAT", "parquet", "QUEEN_S3_BUCKET", "lake",
                "QUEEN_S3_ENDPOINT", dir.toUri().toString(), "QUEEN_LAKE_ICEBERG_CATALOG", "jdbc",
                "QUEEN_LAKE_ICEBERG_URI", "jdbc:sqlite:" + dir.resolve("catalog.db"),
                "QUEEN_LAKE_ICEBERG_WAREHOUSE", dir.resolve("warehouse").toUri().toString());
        Map<String, String> all = new HashMap<>(env);
        all.put("QUEEN_URL", broker.url().toString());
        LakeSettings settings = SettingsLoader.load(all, new String[] {"--queues", "orders", "--sink", sink},
                new Configuration());
        WindowEncoder encoder = new WindowEncoder(settings.writer(), Prefix.DEFAULT, sink);
        SidecarKeys sidecars = new SidecarKeys(Prefix.DEFAULT, world.tenant(), "orders");
        List<Manifest> windows = new ArrayList<>();
        for (int w = 0; w < 4; w++) {
            windows.add(encoder.encode(world.window("orders", w).window()).manifest());
        }
        Manifest third = windows.get(2);
        CommitPointers pointers = new CommitPointers(client, sink);
        pointers.move("orders", ObservedPointer.absent(), new Committed(3, third.tEnd(), sidecars.manifest(3),
                third.records(), third.bytes(), NOW_MICROS / 1000));
        String root = settings.lakeRoot();
        try (QueueTables tables = new QueueTables(settings.catalog().orElseThrow(), sink, world.tenant(), Align.HOUR,
                key -> root + "/" + key)) {
            for (Manifest m : windows.subList(0, 3)) {
                tables.append(m, sidecars.manifest(m.k()));
            }
            String atPointer = status(env, "--sink", sink, "--queue", "orders,refunds");
            assertThat(atPointer).contains("queue 'orders': k=3 ")
                    .containsPattern("  Iceberg table queen_lake\\.queen\\.orders: through window k=3 \\(appended \\d{4}-"
                            + "[^)]*Z\\), as the commit pointer; 3 snapshot\\(s\\), \\d+ metadata file\\(s\\)")
                    .contains("  Iceberg table queen_lake.queen.refunds: not created yet (the job creates it with the first"
                            + " window it commits)");

            // The committer appends window 4 and has not moved the pointer yet.
            tables.append(windows.get(3), sidecars.manifest(4));
            assertThat(status(env, "--sink", sink, "--queue", "orders")).contains("through window k=4 (appended ")
                    .contains("one window ahead of the commit pointer: the job moves the pointer to k=4 next");
        }
        assertThat(dir.resolve("warehouse").resolve("queen").resolve("refunds")).as("status creates no table")
                .doesNotExist();
    }

    @Test
    void aTableBehindThePointerNamesTheWindowsCommittedWithoutTheCatalogAndAFreshDatabaseGetsNoCatalogTables(
            @TempDir Path dir) throws Exception {
        String sink = "behind";
        TestWindows world = new TestWindows(List.of("orders"), 3, 5);
        Map<String, String> env = jdbcCatalog(dir, "catalog.db");
        LakeSettings settings = settings(env, sink);
        SidecarKeys sidecars = new SidecarKeys(Prefix.DEFAULT, world.tenant(), "orders");
        WindowEncoder encoder = new WindowEncoder(settings.writer(), Prefix.DEFAULT, sink);
        List<Manifest> windows = new ArrayList<>();
        for (int w = 0; w < 3; w++) {
            windows.add(encoder.encode(world.window("orders", w).window()).manifest());
        }
        Manifest third = windows.get(2);
        new CommitPointers(client, sink).move("orders", ObservedPointer.absent(), new Committed(3, third.tEnd(),
                sidecars.manifest(3), third.records(), third.bytes(), NOW_MICROS / 1000));
        String root = settings.lakeRoot();
        try (QueueTables tables = new QueueTables(settings.catalog().orElseThrow(), sink, world.tenant(), Align.HOUR,
                key -> root + "/" + key)) {
            tables.append(windows.get(0), sidecars.manifest(1));
        }

        assertThat(status(env, "--sink", sink, "--queue", "orders,refunds"))
                .contains("through window k=1 (appended ")
                .contains(", behind the commit pointer's k=3: it lacks windows 2..3 of the lake's 1..3, committed without"
                        + " the catalog; the job registers them before it appends its next window");

        Path fresh = dir.resolve("fresh.db");
        String out = status(jdbcCatalog(dir, "fresh.db"), "--sink", sink, "--queue", "orders");
        assertThat(out).contains("queue 'orders': k=3 ")
                .contains("  Iceberg table of queue 'orders': could not be read through the jdbc catalog jdbc:sqlite:")
                .contains("check QUEEN_LAKE_ICEBERG_URI and its credentials.");
        try (java.sql.Connection db = java.sql.DriverManager.getConnection("jdbc:sqlite:" + fresh);
                java.sql.ResultSet tablesInDb = db.getMetaData().getTables(null, null, "%", new String[] {"TABLE"})) {
            List<String> names = new ArrayList<>();
            while (tablesInDb.next()) {
                names.add(tablesInDb.getString("TABLE_NAME"));
            }
            assertThat(names).as("status created no table in the catalog's database").isEmpty();
        }
    }

    private static Map<String, String> jdbcCatalog(Path dir, String database) {
        return Map.of("QUEEN_S3_FORMAT", "parquet", "QUEEN_S3_BUCKET", "lake",
                "QUEEN_S3_ENDPOINT", dir.toUri().toString(), "QUEEN_LAKE_ICEBERG_CATALOG", "jdbc",
                "QUEEN_LAKE_ICEBERG_URI", "jdbc:sqlite:" + dir.resolve(database),
                "QUEEN_LAKE_ICEBERG_WAREHOUSE", dir.resolve("warehouse").toUri().toString());
    }

    private static LakeSettings settings(Map<String, String> env, String sink) {
        Map<String, String> all = new HashMap<>(env);
        all.put("QUEEN_URL", broker.url().toString());
        return SettingsLoader.load(all, new String[] {"--queues", "orders", "--sink", sink}, new Configuration());
    }

    @Test
    void queuesAndSinkAreStatussOwnAndJobSettingsComeOnlyWithACatalog() {
        StatusCommand command = new StatusCommand(Map.of("QUEEN_URL", broker.url().toString()),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));

        assertThatThrownBy(() -> command.run(new String[] {"--queues", "orders"}))
                .hasMessage("status: name the queues with --queue and the sink with --sink");
        assertThatThrownBy(() -> command.run(new String[] {"--bucket", "lake"}))
                .hasMessageStartingWith("status: job settings are read only for the Iceberg table lines and --lake: give"
                        + " --iceberg-catalog");
        assertThatThrownBy(() -> command.run(new String[] {"--queu", "orders"}))
                .hasMessageStartingWith("status: unknown option --queu");
    }

    @Test
    void aCatalogThatDoesNotAnswerLeavesTheBrokerLinesAndSaysWhatToCheck() throws Exception {
        String out = status(Map.of("QUEEN_S3_FORMAT", "parquet", "QUEEN_S3_BUCKET", "lake",
                "QUEEN_LAKE_ICEBERG_CATALOG", "rest", "QUEEN_LAKE_ICEBERG_URI", "http://127.0.0.1:1"), "--queue", "orders");

        assertThat(out).contains("queue 'orders': k=12")
                .contains("the rest catalog http://127.0.0.1:1 could not be opened")
                .contains("check QUEEN_LAKE_ICEBERG_URI and its credentials.");
    }

    @Test
    void aCatalogInTheEnvironmentWithoutTheRestOfTheJobsSettingsIsOneLineAndTheBrokerLines() throws Exception {
        String out = status(Map.of("QUEEN_LAKE_ICEBERG_CATALOG", "rest", "QUEEN_LAKE_ICEBERG_URI", "http://127.0.0.1:1"),
                "--queue", "orders");

        assertThat(out).contains("queue 'orders': k=12")
                .contains("Iceberg tables not shown: QUEEN_S3_BUCKET is required but not set");
    }

    @Test
    void catalogSettingsGivenOnTheCommandLineThatDoNotLoadAreRefusedInTheirOneLine() {
        StatusCommand command = new StatusCommand(Map.of("QUEEN_URL", broker.url().toString()),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));

        assertThatThrownBy(() -> command.run(new String[] {"--queue", "orders", "--iceberg-catalog", "rest",
                "--iceberg-uri", "http://127.0.0.1:1"}))
                .hasMessageStartingWith("QUEEN_S3_BUCKET is required but not set: pass --bucket");
    }

    @Test
    void aBrokerThatDoesNotAnswerIsOneSentenceNamingWhatToCheck() {
        StatusCommand command = new StatusCommand(Map.of(), new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8));

        assertThatThrownBy(() -> command.run(new String[] {"--queen-url", "http://127.0.0.1:1", "--queue", "orders"}))
                .hasMessageStartingWith("the broker at http://127.0.0.1:1 did not answer")
                .hasMessageEndingWith("check --queen-url (QUEEN_URL), the token (QUEEN_TOKEN) and the tenant (QUEEN_TENANT).");
    }
}
