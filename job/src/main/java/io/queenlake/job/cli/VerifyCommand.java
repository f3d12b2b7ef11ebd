package io.queenlake.job.cli;

import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.client.QueenException;
import io.queenlake.broker.kv.CommitPointers;
import io.queenlake.broker.kv.Intents;
import io.queenlake.broker.kv.ObservedPointer;
import io.queenlake.broker.kv.UnreadableDocumentException;
import io.queenlake.format.key.SidecarKeys;
import io.queenlake.format.manifest.Committed;
import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.manifest.ManifestJson;
import io.queenlake.format.model.LostRange;
import io.queenlake.job.config.LakeSettings;
import io.queenlake.job.config.Setting;
import io.queenlake.iceberg.CatalogLink;
import io.queenlake.iceberg.TableCheck;
import io.queenlake.connector.verify.FlinkLakeFiles;
import io.queenlake.connector.verify.LakeChecker;
import io.queenlake.connector.verify.LakeReport;
import io.queenlake.source.enumerator.start.ManifestTrail;
import java.io.IOException;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.configuration.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;

/**
 * {@code ./queen-lake verify --queue Q [--sink S]}: the lake checker as a command. Per queue it
 * reads the KV commit pointer, every manifest {@code 1..k} and their objects, prints one summary
 * line (windows, records, bytes, lost ranges, orphans, problems) and each problem, and exits 1 when
 * any queue has a problem. Bucket and broker come from the job's settings (arguments such as
 * {@code --bucket}, Flink keys, {@code QUEEN_*} variables); the queues are read as {@code run}
 * reads {@code QUEEN_S3_QUEUES}, and a named queue with neither a pointer nor an object in the lake
 * is an error (a misspelt name must not pass as consistent). Without the broker's log it checks the
 * lake's own consistency: manifests against objects, tiling, no record twice, no orphans, keys in
 * {@code k} order, the pointer against manifest {@code k}.
 */
final class VerifyCommand implements Subcommand {

    private final Map<String, String> env;
    private final PrintStream out;

    VerifyCommand() {
        this(System.getenv(), System.out);
    }

    VerifyCommand(Map<String, String> env, PrintStream out) {
        this.env = env;
        this.out = out;
    }

    private static final List<CliOption> OPTIONS = List.of(
            CliOption.option("queue", "Q[,Q2]", "the queues to check, as " + Setting.QUEUES.envName() + " takes them:"
                    + " Q, Q1,Q2, a JSON array [\"a,b\"] for names with a comma, or * for every queue of the broker (else"
                    + " --queues or " + Setting.QUEUES.envName() + "); a named queue with no pointer and no object is an"
                    + " error"),
            CliOption.option("sink", "S", "the sink whose pointers to check against (else "
                    + Setting.SINK.envName() + ", else " + Setting.SINK.defaultValue() + ")"));

    private static final Help HELP = new Help(
            "check a lake: per queue its windows, records, bytes, lost ranges, orphans and problems; exit 1 on any problem",
            OPTIONS, " [--setting value ...]", List.of(Usage.bucketAndBrokerSettings()));

    @Override
    public Help help() {
        return HELP;
    }

    @Override
    public int run(String[] args) throws Exception {
        JobSettingsArgs parsed = JobSettingsArgs.split("verify", args, OPTIONS);
        String queue = parsed.own().get("queue");
        String sink = parsed.own().get("sink");
        LakeSettings settings = parsed.settings(env, new Configuration(), extra(parsed, queue, sink));
        List<String> queues = settings.queues();
        QueenClient client = settings.lakeSink().config().newClient();
        boolean named = !queues.equals(List.of("*"));
        if (!named) {
            queues = brokerQueues(client, settings);
        }
        LauncherFileSystems.initialize(new Configuration(), settings);
        LakeChecker checker = new LakeChecker(lakeFiles(settings), settings.prefix());
        CommitPointers pointers = new CommitPointers(client, settings.sink());
        Intents intents = new Intents(client, settings.sink());
        out.println("verifying " + settings.lakePath() + " (sink '" + settings.sink() + "', broker " + settings.queenUrl() + ")");
        boolean clean = true;
        for (String q : queues) {
            ObservedPointer pointer;
            try {
                pointer = pointer(pointers, q, settings);
            } catch (UnreadableDocumentException e) {
                // The other queues are still checked; this one cannot be until its pointer is mended.
                out.println("queue '" + q + "': " + e.getMessage());
                clean = false;
                continue;
            }
            LakeReport report;
            try {
                report = checker.check(settings.tenant(), q, pointer.pointer().orElse(null),
                        accounted(intents, q, pointer.pointer()));
            } catch (IOException e) {
                throw new IllegalStateException("cannot read the lake at " + settings.lakePath() + " (" + e.getMessage()
                        + "): check QUEEN_S3_ENDPOINT, QUEEN_S3_BUCKET, QUEEN_S3_PATH_STYLE and the credentials.", e);
            }
            if (named && neverMirrored(report, pointer)) {
                out.println(noSuchQueue(q, pointers.committedKey(q), settings));
                clean = false;
                continue;
            }
            print(report, pointer, pointers.committedKey(q));
            clean &= report.ok();
            if (settings.catalog().isPresent()) {
                clean &= checkTable(settings, q, report.committedK());
            }
        }
        out.println(clean ? "the lake is consistent" : "the lake has problems (listed above)");
        return clean ? 0 : 1;
    }

    /**
     * The queue's Iceberg table against its manifests, read through a client that creates nothing
     * ({@link CatalogLink#openForReading}); prints what it found, returns whether the table holds
     * the lake's windows as the lake does.
     */
    private boolean checkTable(LakeSettings settings, String queue, long committedK) throws IOException {
        CatalogLink link = settings.catalog().get();
        Catalog catalog = link.openForReading();
        try {
            Optional<Table> existing = link.existingTable(catalog, queue);
            if (existing.isEmpty()) {
                String name = CatalogLink.NAME + "." + link.tableOf(queue);
                out.println("  Iceberg table " + name + ": missing");
                if (committedK > 0) {
                    out.println("    problem: Iceberg table " + name + " lacks " + TableCheck.windows(1, committedK)
                            + " of the lake's 1.." + committedK + ": the job creates it with them (as"
                            + " QUEEN_LAKE_ICEBERG_BACKFILL_WINDOWS allows) before it appends its next window");
                }
                return committedK == 0;
            }
            Table table = existing.get();
            FlinkLakeFiles files = lakeFiles(settings);
            SidecarKeys sidecars = new SidecarKeys(settings.prefix(), settings.tenant(), queue);
            Map<Long, Manifest> manifests = new HashMap<>();
            // The one above the pointer too: a commit under way appends it to the table before it moves the pointer.
            for (long k = 1; k <= committedK + 1; k++) {
                byte[] body = files.read(sidecars.manifest(k));
                if (body != null) {
                    try {
                        manifests.put(k, ManifestJson.read(body));
                    } catch (RuntimeException unreadable) {
                        // The lake's own check above names it; the table is checked against the others.
                    }
                }
            }
            String root = settings.lakeRoot();
            TableCheck check = TableCheck.of(table, settings.sink(), queue, committedK, manifests, key -> root + "/" + key);
            out.println(check.summary());
            check.problems().forEach(p -> out.println("    problem: " + p));
            return check.problems().isEmpty();
        } catch (RuntimeException e) {
            out.println("  Iceberg table of queue '" + queue + "': could not be read through the " + link.describe() + ": " + e);
            return false;
        } finally {
            if (catalog instanceof java.io.Closeable closeable) {
                closeable.close();
            }
        }
    }

    /**
     * A named queue with no commit pointer and not one object in the lake (no window, no orphan, no
     * pending object) was never mirrored to this lake under this sink: most often a misspelt name.
     */
    private static boolean neverMirrored(LakeReport report, ObservedPointer pointer) {
        return pointer.version() == 0 && report.committedK() == 0 && report.orphans().isEmpty()
                && report.pending().isEmpty() && report.problems().isEmpty();
    }

    private static String noSuchQueue(String queue, String pointerKey, LakeSettings settings) {
        return "queue '" + queue + "': no commit pointer (" + pointerKey + ") and no object in " + settings.lakePath()
                + ", so nothing of it was ever mirrored here with sink '" + settings.sink() + "': check the queue name"
                + " and --sink (queen-lake status lists the broker's queues and their pointers)";
    }

    /** {@code --queue} and {@code --sink} as the job's own settings, unless the job arguments give them too. */
    private static String[] extra(JobSettingsArgs parsed, String queue, String sink) {
        List<String> extra = new java.util.ArrayList<>();
        if (queue != null) {
            if (parsed.gives("queues", "QUEEN_S3_QUEUES")) {
                throw new UsageException("verify: give the queues once, with --queue or with --queues, not both");
            }
            extra.add("--queues");
            extra.add(queue);
        }
        if (sink != null) {
            extra.add("--sink");
            extra.add(sink);
        }
        return extra.toArray(String[]::new);
    }

    private static List<String> brokerQueues(QueenClient client, LakeSettings settings) {
        try {
            return client.queues();
        } catch (QueenException e) {
            throw new IllegalStateException("cannot list the queues of the broker at " + settings.queenUrl() + " ("
                    + e.getMessage() + "): check QUEEN_URL, QUEEN_TOKEN and QUEEN_TENANT, or name the queue with --queue.", e);
        }
    }

    private static ObservedPointer pointer(CommitPointers pointers, String queue, LakeSettings settings) {
        try {
            return pointers.read(queue);
        } catch (QueenException e) {
            throw new IllegalStateException("cannot read the commit pointer of queue '" + queue + "' from the broker at "
                    + settings.queenUrl() + " (" + e.getMessage() + "): check QUEEN_URL, QUEEN_TOKEN and QUEEN_TENANT.", e);
        }
    }

    /**
     * The last window the pointer and the queue's intent account for, as the job counts it before
     * it starts the queue: the window above the pointer only when the intent names it (a crashed
     * commit may have published it). An intent that cannot be read or decoded allows that window.
     */
    private static long accounted(Intents intents, String queue, Optional<Committed> pointer) {
        try {
            return ManifestTrail.accountedFor(pointer, intents.read(queue).intent());
        } catch (QueenException | UnreadableDocumentException e) {
            return pointer.map(Committed::k).orElse(0L) + 1;
        }
    }

    private static FlinkLakeFiles lakeFiles(LakeSettings settings) {
        try {
            return new FlinkLakeFiles(settings.lakeRoot());
        } catch (IOException e) {
            throw new IllegalStateException("cannot open the lake at " + settings.lakeRoot() + " (" + e.getMessage()
                    + "): check QUEEN_S3_ENDPOINT and QUEEN_S3_BUCKET.", e);
        }
    }

    private void print(LakeReport report, ObservedPointer pointer, String pointerKey) {
        out.println(report.summary());
        if (pointer.pointer().isEmpty()) {
            out.println("  no commit pointer (" + pointerKey + "): nothing committed yet");
        }
        for (LostRange lost : report.lost()) {
            out.println("  lost (declared by a manifest): partition '" + lost.partition() + "' offsets " + lost.from()
                    + ".." + lost.to());
        }
        for (String pending : report.pending()) {
            out.println("  pending (window " + (report.committedK() + 1) + " is being committed): " + pending);
        }
        for (String problem : report.problems()) {
            out.println("  problem: " + problem);
        }
    }
}
