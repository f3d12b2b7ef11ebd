package io.queenlake.job.cli;

import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.client.QueenException;
import io.queenlake.broker.kv.CommitPointers;
import io.queenlake.broker.kv.Intents;
import io.queenlake.broker.kv.ObservedIntent;
import io.queenlake.broker.kv.ObservedPointer;
import io.queenlake.broker.kv.UnreadableDocumentException;
import io.queenlake.format.key.SidecarKeys;
import io.queenlake.job.config.LakeSettings;
import io.queenlake.job.config.Setting;
import io.queenlake.job.repair.IntentNote;
import io.queenlake.job.repair.LakeScan;
import io.queenlake.job.repair.PointerPlan;
import io.queenlake.job.repair.Proof;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.flink.configuration.Configuration;

/**
 * {@code ./queen-lake repair-pointer --queue Q [--dry-run] [--check-sha256]}: rebuilds a queue's
 * commit pointer from the lake after the broker lost its KV or someone deleted the pointer. It
 * reads the pointer and the intent, proves how far the lake is complete ({@link LakeScan}), prints
 * what it found and what it writes ({@link PointerPlan}, {@link IntentNote}), and writes the
 * pointer of the last proven window with a version precondition (create-if-absent, or the version
 * read): a pointer written meanwhile is a lost precondition, reported and not retried; a pointer
 * ahead of the lake is refused; the intent is never written. Bucket and broker come from the job's
 * settings as {@code verify} reads them. Exit 0 when the pointer is (now) at the proven window,
 * 1 when nothing could or may be written, 2 for a bad command line.
 */
final class RepairPointerCommand implements Subcommand {

    private final Map<String, String> env;
    private final PrintStream out;
    private final Runnable beforeWrite;

    RepairPointerCommand() {
        this(System.getenv(), System.out, () -> {});
    }

    RepairPointerCommand(Map<String, String> env, PrintStream out) {
        this(env, out, () -> {});
    }

    /** @param beforeWrite runs between the read of the pointer and its write (a test's second writer) */
    RepairPointerCommand(Map<String, String> env, PrintStream out, Runnable beforeWrite) {
        this.env = env;
        this.out = out;
        this.beforeWrite = beforeWrite;
    }

    private static final List<CliOption> OPTIONS = List.of(
            CliOption.required("queue", "Q", "the queue whose commit pointer to rebuild (one name, as the broker spells it)"),
            CliOption.option("sink", "S", "the sink whose pointer to rebuild (else " + Setting.SINK.envName() + ", else "
                    + Setting.SINK.defaultValue() + ")"),
            CliOption.flag("dry-run", "print what the lake proves and what would be written, and write nothing"),
            CliOption.flag("check-sha256", "also read every object and check its sha256 against its manifest (else"
                    + " lengths only)"));

    private static final Help HELP = new Help(
            "rebuild a queue's commit pointer from its manifests in the lake (the broker lost its KV, or the pointer"
                    + " was deleted); never moves a pointer back",
            OPTIONS, " [--setting value ...]", List.of(Usage.bucketAndBrokerSettings()));

    @Override
    public Help help() {
        return HELP;
    }

    @Override
    public int run(String[] args) throws Exception {
        JobSettingsArgs parsed = JobSettingsArgs.split("repair-pointer", args, OPTIONS);
        if (parsed.gives(Setting.QUEUES.argName(), Setting.QUEUES.envName())) {
            throw new UsageException("repair-pointer: name the one queue with --queue, not --queues");
        }
        List<String> extra = new ArrayList<>(List.of("--queues", "*"));
        if (parsed.own().given("sink")) {
            extra.add("--sink");
            extra.add(parsed.own().get("sink"));
        }
        LakeSettings settings = parsed.settings(env, new Configuration(), extra.toArray(String[]::new));
        String queue = parsed.own().required("queue");
        boolean dryRun = parsed.own().flag("dry-run");
        boolean checkSha256 = parsed.own().flag("check-sha256");

        QueenClient client = settings.lakeSink().config().newClient();
        CommitPointers pointers = new CommitPointers(client, settings.sink());
        Intents intents = new Intents(client, settings.sink());
        String pointerKey = pointers.committedKey(queue);
        out.println("repair-pointer: queue '" + queue + "' of " + settings.lakePath() + " (sink '" + settings.sink()
                + "', tenant " + settings.tenant() + ", broker " + settings.queenUrl() + ")" + (dryRun ? ", dry run" : ""));
        ObservedPointer observed;
        try {
            observed = broker(settings, "read the commit pointer of queue '" + queue + "'", () -> pointers.read(queue));
        } catch (UnreadableDocumentException e) {
            out.println("queue '" + queue + "': " + e.getMessage() + "; nothing written");
            return 1;
        }
        Proof proof = scan(settings, queue, checkSha256);
        String folder = settings.lakeRoot() + "/" + new SidecarKeys(settings.prefix(), settings.tenant(), queue).manifestDirectory();
        out.println(proof.summary(queue, folder));
        if (proof.empty()) {
            out.println("nothing in the lake to rebuild " + pointerKey + " from (it is "
                    + (observed.pointer().isEmpty() ? "absent" : "at k=" + observed.k()) + "), so nothing is written:"
                    + " check the queue name, --queen-tenant, --bucket and --prefix");
            return 1;
        }
        PointerPlan plan = PointerPlan.of(proof, observed, pointerKey, queue);
        if (plan instanceof PointerPlan.Refuse) {
            out.println(plan.line());
            return 1;
        }
        if (proof.stop().isPresent()) {
            out.println(proof.shortOfTheLake(queue));
            return 1;
        }
        out.println(plan.line());
        intentNote(settings, intents, queue, proof.k());
        if (plan instanceof PointerPlan.UpToDate) {
            return 0;
        }
        PointerPlan.Write write = (PointerPlan.Write) plan;
        if (dryRun) {
            out.println("dry run: nothing written");
            return 0;
        }
        beforeWrite.run();
        CommitPointers.Move move;
        try {
            move = pointers.move(queue, write.expected(), write.next());
        } catch (QueenException e) {
            throw new IllegalStateException("the write of the commit pointer " + pointerKey + " to the broker at "
                    + settings.queenUrl() + " failed (" + e.getMessage() + "), so whether it applied is unknown: run"
                    + " ./queen-lake repair-pointer again, which reads the pointer anew.", e);
        }
        if (!move.applied()) {
            out.println("the commit pointer " + pointerKey + " changed after repair-pointer read it (when it was "
                    + (write.expected().pointer().isEmpty() ? "absent" : "at k=" + write.expected().k()) + ", version "
                    + write.expected().version() + "), so someone else wrote it and nothing was written: stop that"
                    + " writer (is the job running?), then run ./queen-lake repair-pointer again");
            return 1;
        }
        out.println("commit pointer " + pointerKey + " written at k=" + write.next().k() + " (version "
                + move.now().version() + "): the job continues at window " + (write.next().k() + 1));
        return 0;
    }

    /** Prints what the repaired k means for the intent; an intent that cannot be read is said, not fatal. */
    private void intentNote(LakeSettings settings, Intents intents, String queue, long k) {
        try {
            ObservedIntent intent = broker(settings, "read the intent of queue '" + queue + "'", () -> intents.read(queue));
            IntentNote.of(intent, k, intents.intentKey(queue)).ifPresent(out::println);
        } catch (UnreadableDocumentException e) {
            out.println(e.getMessage() + " (repair-pointer leaves it as it is; the job stops on it until then)");
        }
    }

    private static Proof scan(LakeSettings settings, String queue, boolean checkSha256) {
        LauncherFileSystems.initialize(new Configuration(), settings);
        try {
            return LakeScan.open(settings.lakeRoot(), settings.prefix(), settings.sink(), checkSha256)
                    .scan(settings.tenant(), queue);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the lake at " + settings.lakePath() + " (" + e.getMessage()
                    + "): check QUEEN_S3_ENDPOINT, QUEEN_S3_BUCKET, QUEEN_S3_PATH_STYLE and the credentials; nothing"
                    + " written.", e);
        }
    }

    /** One broker call; a failure is one sentence naming the broker and what to check. */
    private static <T> T broker(LakeSettings settings, String what, Supplier<T> call) {
        try {
            return call.get();
        } catch (QueenException e) {
            throw new IllegalStateException("cannot " + what + " on the broker at " + settings.queenUrl() + " ("
                    + e.getMessage() + "): check " + (e.refusesToken() ? "QUEEN_TOKEN" : "QUEEN_URL, QUEEN_TOKEN and QUEEN_TENANT")
                    + "; nothing written.", e);
        }
    }
}
