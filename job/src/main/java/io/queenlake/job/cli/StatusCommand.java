package io.queenlake.job.cli;

import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.client.QueenException;
import io.queenlake.broker.kv.CommitPointers;
import io.queenlake.broker.kv.Intents;
import io.queenlake.broker.kv.ObservedPointer;
import io.queenlake.broker.kv.UnreadableDocumentException;
import io.queenlake.format.manifest.Committed;
import io.queenlake.job.config.LakeSettings;
import io.queenlake.job.config.Origin;
import io.queenlake.job.config.QueueList;
import io.queenlake.job.config.Setting;
import io.queenlake.job.config.SettingsException;
import io.queenlake.iceberg.CatalogLink;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;

/**
 * {@code ./queen-lake status}: per queue, the KV commit pointer (k, tEnd, records), the lease
 * holder and the lag behind the broker's safeTime, read from the broker alone (no bucket access).
 * The queues are {@code --queue}, else {@code QUEEN_S3_QUEUES}, else every queue of the broker;
 * the broker, tenant and sink as for the job ({@code --queen-url} or {@code QUEEN_URL}, ...).
 * With an Iceberg catalog ({@code QUEEN_LAKE_ICEBERG_CATALOG} in the environment, or
 * {@code --iceberg-catalog} with the other job settings it needs) it also reads the job's settings
 * as {@code run} does and shows each queue's table against its pointer ({@link TableStatus}),
 * creating nothing. With {@code --lake} it reads the job's bucket settings too and names each
 * queue whose manifests run ahead of its pointer ({@link StatusLake}).
 */
final class StatusCommand implements Subcommand {

    private final Map<String, String> env;
    private final PrintStream out;

    StatusCommand() {
        this(System.getenv(), System.out);
    }

    StatusCommand(Map<String, String> env, PrintStream out) {
        this.env = env;
        this.out = out;
    }

    private static final List<CliOption> OPTIONS = Stream.concat(Stream.of(
            CliOption.option("queue", "Q[,Q2]", "the queues, as " + Setting.QUEUES.envName() + " takes them (Q1,Q2, a"
                    + " JSON array [\"a,b\"] for names with a comma, or *) (else " + Setting.QUEUES.envName()
                    + ", else every queue of the broker)"),
            CliOption.option("sink", "S", "the sink whose pointers and leases to read (else " + Setting.SINK.envName()
                    + ", else " + Setting.SINK.defaultValue() + ")"),
            CliOption.flag("lake", "also compare each queue's manifests in the bucket with its commit pointer (one"
                    + " existence check a queue, with the job's bucket settings): names a pointer the broker's KV lost"
                    + " or someone deleted while the lake holds its windows")),
            BrokerConnection.OPTIONS.stream()).toList();

    private static final Help HELP = new Help(
            "per queue: the commit pointer, the lease holder and the lag behind the broker's safeTime (from the broker"
                    + " alone), and with a catalog the queue's Iceberg table", OPTIONS, " [--setting value ...]",
            List.of(Usage.settings("with " + Setting.ICEBERG_CATALOG.envName() + " set, or --"
                    + Setting.ICEBERG_CATALOG.argName() + " given, it reads the job's settings as run does (--name value"
                    + " or the variable), for the catalog and the bucket its tables live in (queen-lake run --help lists"
                    + " every setting):", Setting.ICEBERG_CATALOG,
                    Setting.ICEBERG_URI, Setting.ICEBERG_WAREHOUSE, Setting.ICEBERG_NAMESPACE, Setting.BUCKET,
                    Setting.ENDPOINT)));

    @Override
    public Help help() {
        return HELP;
    }

    @Override
    public int run(String[] args) throws Exception {
        JobSettingsArgs parsed = JobSettingsArgs.splitKnownSettings("status", args, OPTIONS);
        CommandArgs a = parsed.own();
        BrokerConnection broker = BrokerConnection.from(a, env);
        String url = broker.url();
        String tenant = broker.tenant();
        String sink = a.get("sink", env.getOrDefault(Setting.SINK.envName(), Setting.SINK.defaultValue()));
        // Settings first: a wrong one is refused before the broker is asked anything.
        List<String> notes = new ArrayList<>();
        boolean lakeAsked = a.flag("lake");
        Optional<CatalogLink> catalog = catalog(parsed, sink, lakeAsked, notes::add);
        Optional<LakeSettings> lakeSettings = lakeAsked
                ? Optional.of(parsed.settings(env, new Configuration(), "--queues", "*", "--sink", sink))
                : Optional.empty();
        QueenClient client = broker.client("status");
        CommitPointers pointers = new CommitPointers(client, sink);
        Optional<StatusLake> lake = lakeSettings.isEmpty() ? Optional.empty()
                : Optional.of(StatusLake.open(lakeSettings.get(), new Intents(client, sink), out));
        Origin origin = a.given("queue") ? Origin.ARGUMENT : Origin.ENVIRONMENT;
        try {
            List<String> queues = queues(a.get("queue", env.get(Setting.QUEUES.envName())), origin, client);
            long safeTime = client.safeTimeMicros();
            out.println("broker " + url + ", sink '" + sink + "', tenant " + tenant);
            notes.forEach(out::println);
            if (queues.isEmpty()) {
                out.println("the broker has no queue yet");
            }
            try (StatusTables tables = StatusTables.open(catalog, sink, out)) {
                for (String queue : queues) {
                    try {
                        QueueStatus status = status(queue, pointers, safeTime);
                        out.println(status.line());
                        lake.ifPresent(l -> l.print(queue, pointers.committedKey(queue), status.pointer()));
                        tables.print(queue, status.pointer().map(Committed::k).orElse(0L));
                    } catch (UnreadableDocumentException e) {
                        out.println(queue + ": " + e.getMessage());
                    }
                }
            }
        } catch (QueenException e) {
            throw new IllegalStateException("the broker at " + url + " did not answer (" + e.getMessage()
                    + "): check --queen-url (QUEEN_URL), the token (QUEEN_TOKEN) and the tenant (QUEEN_TENANT).", e);
        }
        return 0;
    }

    /**
     * The Iceberg catalog of the job's settings, when the environment or the command line sets one;
     * empty without. Job settings on the command line are for the catalog alone (without one they
     * are refused), and the queues and the sink are status's own ({@code --queue}, {@code --sink}).
     * Settings given on the command line that do not load fail the command with their one line;
     * settings only in the environment (status run beside the job, with part of its variables)
     * leave the table lines out, with that line told to {@code note}.
     */
    private Optional<CatalogLink> catalog(JobSettingsArgs parsed, String sink, boolean lakeAsked, Consumer<String> note) {
        if (parsed.gives(Setting.QUEUES.argName(), Setting.QUEUES.envName())
                || parsed.gives(Setting.SINK.argName(), Setting.SINK.envName())) {
            throw new UsageException("status: name the queues with --queue and the sink with --sink");
        }
        String kind = env.get(Setting.ICEBERG_CATALOG.envName());
        boolean fromEnv = kind != null && !kind.isBlank() && !kind.strip().equals(Setting.ICEBERG_CATALOG.defaultValue());
        boolean fromArgs = parsed.gives(Setting.ICEBERG_CATALOG.argName(), Setting.ICEBERG_CATALOG.envName());
        if (!fromEnv && !fromArgs) {
            if (parsed.hasSettings() && !lakeAsked) {
                throw new UsageException("status: job settings are read only for the Iceberg table lines and --lake:"
                        + " give --" + Setting.ICEBERG_CATALOG.argName() + " (or set " + Setting.ICEBERG_CATALOG.envName()
                        + ") or --lake with them, or leave them out");
            }
            return Optional.empty();
        }
        try {
            // The queues are status's own; the job's settings only need to load.
            return parsed.settings(env, new Configuration(), "--queues", "*", "--sink", sink).catalog();
        } catch (SettingsException e) {
            if (parsed.hasSettings()) {
                throw e;
            }
            note.accept("Iceberg tables not shown: " + e.getMessage());
            return Optional.empty();
        }
    }

    /** The queues named as {@code run} reads {@code QUEEN_S3_QUEUES} ({@link QueueList}), else every queue of the broker. */
    private static List<String> queues(String named, Origin origin, QueenClient client) {
        List<String> queues = named == null || named.isBlank() ? List.of("*") : QueueList.parse(named.strip(), origin);
        return queues.equals(List.of("*")) ? client.queues().stream().sorted().toList() : queues;
    }

    private static QueueStatus status(String queue, CommitPointers pointers, long safeTime) {
        ObservedPointer pointer = pointers.read(queue);
        Optional<CommitPointers.LeaseRow> lease = pointers.lease(queue);
        boolean unreadable = lease.isPresent() && lease.get().holder().isEmpty();
        OptionalLong expires = lease.map(l -> l.row().expiresAtMicros()).orElse(OptionalLong.empty());
        return new QueueStatus(queue, pointer.pointer(), pointer.version(), lease.flatMap(CommitPointers.LeaseRow::holder),
                unreadable, expires, safeTime);
    }
}
