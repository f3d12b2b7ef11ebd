package io.queenlake.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.broker.client.HttpQueenClient;
import io.queenlake.broker.client.KvExpiry;
import io.queenlake.broker.client.KvOp;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.client.RawJson;
import io.queenlake.broker.kv.CommitPointers;
import io.queenlake.broker.kv.Intents;
import io.queenlake.broker.kv.ObservedIntent;
import io.queenlake.broker.kv.ObservedPointer;
import io.queenlake.broker.kv.SinkKeys;
import io.queenlake.devstack.broker.DevBroker;
import io.queenlake.devstack.broker.DevBrokerOptions;
import io.queenlake.format.key.Prefix;
import io.queenlake.format.key.SidecarKeys;
import io.queenlake.format.manifest.Committed;
import io.queenlake.format.manifest.Intent;
import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.manifest.ManifestJson;
import io.queenlake.format.window.EncodedObject;
import io.queenlake.format.window.EncodedWindow;
import io.queenlake.format.window.WindowEncoder;
import io.queenlake.format.window.WriterSettings;
import io.queenlake.connector.testutils.TestWindows;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./queen-lake verify} against a lake in a local folder and its pointer in the dev broker's
 * KV: a good lake exits 0 with its summary; a deleted object or an orphan exits 1 naming the key; a
 * named queue that was never mirrored exits 1 naming it; queue lists are read as {@code run} reads them.
 */
class VerifyCommandTest {

    private static final TestWindows WORLD = new TestWindows(List.of("orders"), 3, 7);
    private static final String QUEUE = "orders";
    private static final SidecarKeys SIDECARS = new SidecarKeys(Prefix.DEFAULT, WORLD.tenant(), QUEUE);

    private static DevBroker broker;

    @TempDir
    Path dir;

    @BeforeAll
    static void startBroker() throws IOException {
        broker = DevBroker.start(DevBrokerOptions.builder().build());
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    /** A committed lake of three windows under {@code <dir>/lake/queen}, its pointer at k=3 under {@code sink}. */
    private Path lakeWithPointer(String sink) throws IOException {
        return lakeWithPointer(sink, WriterSettings.defaults(), new java.util.ArrayList<>());
    }

    private Path lakeWithPointer(String sink, WriterSettings writer, List<Manifest> manifests) throws IOException {
        Path bucket = dir.resolve("lake");
        WindowEncoder encoder = new WindowEncoder(writer, Prefix.DEFAULT, sink);
        Manifest last = null;
        for (int w = 0; w < 3; w++) {
            EncodedWindow encoded = encoder.encode(WORLD.window(QUEUE, w).window());
            for (EncodedObject o : encoded.objects()) {
                write(bucket.resolve(o.key()), o.body());
            }
            last = encoded.manifest().withCommittedAt(1_791_007_800_000L + w);
            manifests.add(last);
            write(bucket.resolve(SIDECARS.manifest(w + 1)), ManifestJson.write(last));
        }
        CommitPointers pointers = new CommitPointers(HttpQueenClient.builder().baseUrl(broker.url().toString()).build(), sink);
        Committed committed = new Committed(3, last.tEnd(), SIDECARS.manifest(3), last.records(), last.bytes(),
                last.committedAtMicros() / 1000);
        assertThat(pointers.move(QUEUE, ObservedPointer.absent(), committed).applied()).isTrue();
        return bucket;
    }

    private static void write(Path file, byte[] body) throws IOException {
        Files.createDirectories(file.getParent());
        Files.write(file, body);
    }

    private record Outcome(int exit, String out) {}

    private Outcome verify(String sink) throws Exception {
        return verify(sink, QUEUE);
    }

    private Outcome verify(String sink, String queues) throws Exception {
        return verify(sink, queues, Map.of());
    }

    private Outcome verify(String sink, String queues, Map<String, String> more) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Map<String, String> env = new java.util.HashMap<>(Map.of("QUEEN_URL", broker.url().toString(),
                "QUEEN_S3_BUCKET", "lake", "QUEEN_S3_ENDPOINT", dir.toUri().toString()));
        env.putAll(more);
        int exit = new VerifyCommand(env, new PrintStream(bytes, true, StandardCharsets.UTF_8))
                .run(new String[] {"--queue", queues, "--sink", sink});
        return new Outcome(exit, bytes.toString(StandardCharsets.UTF_8));
    }

    /** The one line verify prints for a named queue with no pointer and no object. */
    private String noSuchQueue(String queue, String sink) {
        return "queue '" + queue + "': no commit pointer (" + new SinkKeys(sink).committed(queue) + ") and no object in "
                + dir.toUri().toString().replaceAll("/$", "") + "/lake/queen, so nothing of it was ever mirrored here with"
                + " sink '" + sink + "': check the queue name and --sink (queen-lake status lists the broker's queues and"
                + " their pointers)\n";
    }

    @Test
    void aGoodLakeExitsZeroWithItsSummary() throws Exception {
        lakeWithPointer("good");

        Outcome outcome = verify("good");

        assertThat(outcome.exit()).as(outcome.out()).isZero();
        assertThat(outcome.out()).contains("queue 'orders': 3 windows, 21 records, ")
                .contains("1 lost ranges (3 records), 0 orphans, 0 problems")
                .contains("lost (declared by a manifest): partition 'p1' offsets 1001..1003")
                .contains("the lake is consistent");
    }

    /** A lake of three Parquet windows under {@code sink}, its manifests added to {@code manifests}. */
    private void parquetLakeWithPointer(String sink, List<Manifest> manifests) throws IOException {
        lakeWithPointer(sink, new WriterSettings(new io.queenlake.format.object.Format.Parquet(
                io.queenlake.format.parquet.ParquetCodec.ZSTD), io.queenlake.format.model.Layout.MERGED,
                io.queenlake.format.model.Align.HOUR, 1 << 20), manifests);
    }

    /** The settings of a JDBC catalog on SQLite in the test folder. */
    private Map<String, String> jdbcCatalog() {
        return Map.of("QUEEN_S3_FORMAT", "parquet", "QUEEN_LAKE_ICEBERG_CATALOG", "jdbc",
                "QUEEN_LAKE_ICEBERG_URI", "jdbc:sqlite:" + dir.resolve("catalog.db"),
                "QUEEN_LAKE_ICEBERG_WAREHOUSE", dir.resolve("warehouse").toUri().toString());
    }

    /** The job's settings with {@code catalog}'s, over the test's lake and broker. */
    private io.queenlake.job.config.LakeSettings jobSettings(Map<String, String> catalog) {
        Map<String, String> env = new java.util.HashMap<>(catalog);
        env.putAll(Map.of("QUEEN_URL", broker.url().toString(), "QUEEN_S3_BUCKET", "lake",
                "QUEEN_S3_ENDPOINT", dir.toUri().toString()));
        return io.queenlake.job.config.SettingsLoader.load(env, new String[] {"--queues", QUEUE},
                new org.apache.flink.configuration.Configuration());
    }

    /** The committer's side of the queues' tables, as the job with {@code settings} opens it. */
    private static io.queenlake.iceberg.QueueTables tables(io.queenlake.job.config.LakeSettings settings, String sink) {
        String root = settings.lakeRoot();
        return new io.queenlake.iceberg.QueueTables(settings.catalog().orElseThrow(), sink, WORLD.tenant(),
                io.queenlake.format.model.Align.HOUR, key -> root + "/" + key);
    }

    /** Changes the catalog of {@code settings} as someone else would, through a client of their own. */
    private static void onTheCatalog(io.queenlake.job.config.LakeSettings settings,
            java.util.function.Consumer<org.apache.iceberg.catalog.Catalog> change) throws IOException {
        org.apache.iceberg.catalog.Catalog c = settings.catalog().get().open();
        try {
            change.accept(c);
        } finally {
            ((java.io.Closeable) c).close();
        }
    }

    @Test
    void anIcebergTableIsCheckedAgainstTheManifestsAndAWindowAppendedTwiceIsNamed() throws Exception {
        List<Manifest> manifests = new java.util.ArrayList<>();
        parquetLakeWithPointer("tables", manifests);
        Map<String, String> catalog = jdbcCatalog();
        io.queenlake.job.config.LakeSettings settings = jobSettings(catalog);
        String root = settings.lakeRoot();
        try (io.queenlake.iceberg.QueueTables tables = tables(settings, "tables")) {
            for (Manifest m : manifests) {
                assertThat(tables.append(m, SIDECARS.manifest(m.k()))).isTrue();
            }
            assertThat(tables.append(manifests.get(1), SIDECARS.manifest(2))).as("a retried window").isFalse();
        }

        Outcome clean = verify("tables", QUEUE, catalog);
        assertThat(clean.exit()).as(clean.out()).isZero();
        assertThat(clean.out()).contains("Iceberg table queen_lake.queen.orders: 3 windows (1..3), 21 records");

        // Someone appends window 2's objects again in this sink's name.
        onTheCatalog(settings, c -> {
            org.apache.iceberg.Table table = c.loadTable(org.apache.iceberg.catalog.TableIdentifier.of("queen", "orders"));
            var again = table.newFastAppend();
            for (var o : manifests.get(1).objects()) {
                again.appendFile(org.apache.iceberg.DataFiles.builder(table.spec()).withPath(root + "/" + o.key())
                        .withFormat(org.apache.iceberg.FileFormat.PARQUET).withFileSizeInBytes(o.bytes())
                        .withRecordCount(o.records())
                        .withPartition(table.newScan().planFiles().iterator().next().file().partition()).build());
            }
            again.set("queen.sink", "tables").set("queen.queue", QUEUE).set("queen.window", "2").commit();
        });
        Outcome twice = verify("tables", QUEUE, catalog);
        assertThat(twice.exit()).as(twice.out()).isOne();
        assertThat(twice.out()).contains("window 2 is appended twice to queen_lake.queen.orders");
    }

    @Test
    void aTableThatLacksWindowsTheLakeHasExitsOneNamingThemAndAHistoryLimitedOnPurposeDoesNot() throws Exception {
        List<Manifest> manifests = new java.util.ArrayList<>();
        parquetLakeWithPointer("lacking", manifests);
        Map<String, String> catalog = jdbcCatalog();

        // The job, told to keep one window of history, creates the table while committing window 3.
        Map<String, String> limited = new java.util.HashMap<>(catalog);
        limited.put("QUEEN_LAKE_ICEBERG_BACKFILL_WINDOWS", "1");
        io.queenlake.job.config.LakeSettings settings = jobSettings(limited);
        try (io.queenlake.iceberg.QueueTables tables = tables(settings, "lacking")) {
            assertThat(tables.append(manifests.get(2), SIDECARS.manifest(3))).isTrue();
        }
        Outcome intended = verify("lacking", QUEUE, catalog);
        assertThat(intended.exit()).as(intended.out()).isZero();
        assertThat(intended.out()).contains("  Iceberg table queen_lake.queen.orders: 2 windows (2..3), 14 records; its"
                + " history starts at window 2 (QUEEN_LAKE_ICEBERG_BACKFILL_WINDOWS): window 1 left out as intended\n");

        // Someone removes the record of where the history starts: window 1 is now missing, not left out.
        onTheCatalog(settings, c -> c.loadTable(org.apache.iceberg.catalog.TableIdentifier.of("queen", "orders"))
                .updateProperties().remove("queen.lacking.first-window").commit());
        Outcome lacking = verify("lacking", QUEUE, catalog);
        assertThat(lacking.exit()).as(lacking.out()).isOne();
        assertThat(lacking.out()).contains("    problem: Iceberg table queen_lake.queen.orders lacks window 1 of the lake's"
                + " 1..3: drop the table, and the job creates it again with the lake's windows (as"
                + " QUEEN_LAKE_ICEBERG_BACKFILL_WINDOWS allows) before it appends its next one")
                .contains("the lake has problems");

        // Dropped (or forgotten by its catalog): the lake's every window is missing from it.
        onTheCatalog(settings, c -> c.dropTable(org.apache.iceberg.catalog.TableIdentifier.of("queen", "orders"), false));
        Outcome missing = verify("lacking", QUEUE, catalog);
        assertThat(missing.exit()).as(missing.out()).isOne();
        assertThat(missing.out()).contains("  Iceberg table queen_lake.queen.orders: missing\n"
                + "    problem: Iceberg table queen_lake.queen.orders lacks windows 1..3 of the lake's 1..3: the job creates"
                + " it with them (as QUEEN_LAKE_ICEBERG_BACKFILL_WINDOWS allows) before it appends its next window");
    }

    @Test
    void aDeletedObjectExitsOneNamingIt() throws Exception {
        Path bucket = lakeWithPointer("deleted");
        String key = ManifestJson.read(Files.readAllBytes(bucket.resolve(SIDECARS.manifest(2)))).objects().get(0).key();
        Files.delete(bucket.resolve(key));

        Outcome outcome = verify("deleted");

        assertThat(outcome.exit()).as(outcome.out()).isEqualTo(1);
        assertThat(outcome.out()).contains("problem: object " + key + " of window 2 is missing")
                .contains("the lake has problems");
    }

    @Test
    void anOrphanExitsOneNamingIt() throws Exception {
        Path bucket = lakeWithPointer("orphan");
        String key = ManifestJson.read(Files.readAllBytes(bucket.resolve(SIDECARS.manifest(1)))).objects().get(0).key();
        String orphan = key.replace("w-0000000001-", "w-0000000007-");
        write(bucket.resolve(orphan), new byte[] {1, 2, 3});

        Outcome outcome = verify("orphan");

        assertThat(outcome.exit()).as(outcome.out()).isEqualTo(1);
        assertThat(outcome.out()).contains("1 orphans")
                .contains("problem: object " + orphan + " is named by no manifest 1..3 (an orphan)");
    }

    @Test
    void aPointerGoneWhileManifestsExistIsOneProblemNamingTheRepairNotOrphans() throws Exception {
        lakeWithPointer("forgot");
        HttpQueenClient.builder().baseUrl(broker.url().toString()).build()
                .kv(List.of(KvOp.delete(SinkKeys.NAMESPACE, new SinkKeys("forgot").committed(QUEUE))));

        Outcome outcome = verify("forgot");

        assertThat(outcome.exit()).as(outcome.out()).isEqualTo(1);
        assertThat(outcome.out()).contains("problem: the commit pointer is absent but manifests 1..3 (of sink 'forgot')"
                        + " exist in the bucket (the broker lost its KV, or someone deleted the pointer; not another writer)")
                .contains("`./queen-lake repair-pointer --queue orders`")
                .doesNotContain("(an orphan)");
        assertThat(outcome.out().lines().filter(l -> l.contains("problem:"))).hasSize(1);
    }

    @Test
    void aManifestAboveThePointerIsPendingOnlyWhileTheIntentNamesIt() throws Exception {
        List<Manifest> manifests = new java.util.ArrayList<>();
        lakeWithPointer("above", WriterSettings.defaults(), manifests);
        QueenClient client = HttpQueenClient.builder().baseUrl(broker.url().toString()).build();
        CommitPointers pointers = new CommitPointers(client, "above");
        client.kv(List.of(KvOp.delete(SinkKeys.NAMESPACE, pointers.committedKey(QUEUE))));
        Manifest second = manifests.get(1);
        pointers.move(QUEUE, ObservedPointer.absent(), new Committed(2, second.tEnd(), SIDECARS.manifest(2),
                second.records(), second.bytes(), second.committedAtMicros() / 1000));

        Outcome forgotten = verify("above");
        assertThat(forgotten.exit()).as(forgotten.out()).isEqualTo(1);
        assertThat(forgotten.out()).contains("problem: the commit pointer is at k=2 but manifests 3..3 (of sink 'above')"
                + " exist in the bucket");

        Manifest third = manifests.get(2);
        new Intents(client, "above").write(QUEUE, ObservedIntent.absent(), new Intent(3, third.tStart(), third.tEnd(),
                third.format(), third.compression(), third.layout(), third.writer()));
        Outcome crashed = verify("above");
        assertThat(crashed.exit()).as("a commit of window 3 between its manifest and its pointer: " + crashed.out())
                .isZero();
    }

    @Test
    void objectsOfTheNextWindowArePendingNotOrphans() throws Exception {
        Path bucket = lakeWithPointer("pending");
        String key = ManifestJson.read(Files.readAllBytes(bucket.resolve(SIDECARS.manifest(1)))).objects().get(0).key();
        String next = key.replace("w-0000000001-", "w-0000000004-");
        write(bucket.resolve(next), new byte[] {1});

        Outcome outcome = verify("pending");

        assertThat(outcome.exit()).as(outcome.out()).isZero();
        assertThat(outcome.out()).contains("pending (window 4 is being committed): " + next);
    }

    @Test
    void aQueueThatWasNeverMirroredIsAnErrorNamingItAndPointingAtStatus() throws Exception {
        lakeWithPointer("misspelt");

        Outcome outcome = verify("misspelt", "ordres");

        assertThat(outcome.exit()).as(outcome.out()).isEqualTo(1);
        assertThat(outcome.out()).contains(noSuchQueue("ordres", "misspelt"))
                .doesNotContain("the lake is consistent").contains("the lake has problems");
    }

    @Test
    void aPointerThatDoesNotDecodeIsNamedAndTheOtherQueuesAreStillChecked() throws Exception {
        lakeWithPointer("garbled");
        HttpQueenClient.builder().baseUrl(broker.url().toString()).build().kv(List.of(KvOp.upsert(SinkKeys.NAMESPACE,
                new SinkKeys("garbled").committed("broken"), RawJson.of("{\"k\":\"three\"}"), KvExpiry.forever())));

        Outcome outcome = verify("garbled", "broken,orders");

        assertThat(outcome.exit()).as(outcome.out()).isEqualTo(1);
        assertThat(outcome.out()).contains("queue 'broken': the commit pointer s3:garbled:broken:committed of queue"
                        + " 'broken'")
                .contains("fix or delete it in namespace queen-s3")
                .contains("queue 'orders': 3 windows, 21 records, ")
                .contains("the lake has problems");
    }

    @Test
    void queuesAreNamedAsRunTakesThemAJsonArrayKeepingACommaInAName() throws Exception {
        lakeWithPointer("lists");

        Outcome array = verify("lists", "[\"orders\",\"a,b\"]");
        assertThat(array.out()).as(array.out()).contains("queue 'orders': 3 windows").contains(noSuchQueue("a,b", "lists"))
                .doesNotContain("queue 'a'").doesNotContain("queue 'b'");
        assertThat(array.exit()).isEqualTo(1);

        Outcome commas = verify("lists", "orders, a");
        assertThat(commas.out()).as(commas.out()).contains("queue 'orders': 3 windows").contains(noSuchQueue("a", "lists"));
    }

    @Test
    void everyQueueOfTheBrokerMayHaveNothingCommittedYet() throws Exception {
        HttpQueenClient.builder().baseUrl(broker.url().toString()).build()
                .push(List.of(io.queenlake.broker.client.PushItem.of("fresh", "p", "t-1", "{}")));

        Outcome outcome = verify("star", "*");

        assertThat(outcome.exit()).as(outcome.out()).isZero();
        assertThat(outcome.out()).contains("queue 'fresh': 0 windows")
                .contains("no commit pointer (s3:star:fresh:committed): nothing committed yet")
                .contains("the lake is consistent");
    }

    @Test
    void aQueueWithoutPointerButWithManifestsIsOneProblemNamingTheirSink() throws Exception {
        Path bucket = lakeWithPointer("other-sink");

        Outcome outcome = verify("no-pointer");

        assertThat(outcome.exit()).as(outcome.out()).isEqualTo(1);
        assertThat(outcome.out()).contains("no commit pointer (s3:no-pointer:orders:committed): nothing committed yet")
                .contains("queue 'orders': 0 windows")
                .contains("problem: the commit pointer is absent but manifests 1..3 (of sink 'other-sink') exist")
                .contains("check --sink")
                .doesNotContain("(an orphan)");
        assertThat(bucket).exists();
    }
}
