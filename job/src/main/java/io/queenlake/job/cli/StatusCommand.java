package io.queenlake.job.cli;

import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.client.QueenException;
import io.queenlake.broker.kv.CommitPointers;
import io.queenlake.broker.kv.ObservedPointer;
import io.queenlake.broker.kv.UnreadableDocumentException;
import io.queenlake.job.config.Origin;
import io.queenlake.job.config.QueueList;
import io.queenlake.job.config.Setting;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Stream;

/**
 * {@code ./queen-lake status}: per queue, the KV commit pointer (k, tEnd, records), the lease
 * holder and the lag behind the broker's safeTime, read from the broker alone (no bucket access).
 * The queues are {@code --queue}, else {@code QUEEN_S3_QUEUES}, else every queue of the broker;
 * the broker, tenant and sink as for the job ({@code --queen-url} or {@code QUEEN_URL}, ...).
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
                    + ", else " + Setting.SINK.defaultValue() + ")")),
            BrokerConnection.OPTIONS.stream()).toList();

    private static final Help HELP = new Help(
            "per queue: the commit pointer, the lease holder and the lag behind the broker's safeTime (from the broker"
                    + " alone)", OPTIONS);

    @Override
    public Help help() {
        return HELP;
    }

    @Override
    public int run(String[] args) throws Exception {
        CommandArgs a = CommandArgs.parse("status", args, OPTIONS);
        BrokerConnection broker = BrokerConnection.from(a, env);
        String url = broker.url();
        String tenant = broker.tenant();
        String sink = a.get("sink", env.getOrDefault(Setting.SINK.envName(), Setting.SINK.defaultValue()));
        QueenClient client = broker.client("status");
        CommitPointers pointers = new CommitPointers(client, sink);
        Origin origin = a.given("queue") ? Origin.ARGUMENT : Origin.ENVIRONMENT;
        try {
            List<String> queues = queues(a.get("queue", env.get(Setting.QUEUES.envName())), origin, client);
            long safeTime = client.safeTimeMicros();
            out.println("broker " + url + ", sink '" + sink + "', tenant " + tenant);
            if (queues.isEmpty()) {
                out.println("the broker has no queue yet");
            }
            for (String queue : queues) {
                try {
                    out.println(status(queue, pointers, safeTime).line());
                } catch (UnreadableDocumentException e) {
                    out.println(queue + ": " + e.getMessage());
                }
            }
        } catch (QueenException e) {
            throw new IllegalStateException("the broker at " + url + " did not answer (" + e.getMessage()
                    + "): check --queen-url (QUEEN_URL), the token (QUEEN_TOKEN) and the tenant (QUEEN_TENANT).", e);
        }
        return 0;
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
