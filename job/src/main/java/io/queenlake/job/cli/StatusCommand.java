package io.queenlake.job.cli;

import io.queenlake.broker.client.KvAnswer;
import io.queenlake.broker.client.KvOp;
import io.queenlake.broker.client.KvResult;
import io.queenlake.broker.client.KvRow;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.client.QueenException;
import io.queenlake.format.manifest.LeaseDoc;
import io.queenlake.job.config.Setting;
import io.queenlake.job.sink.committer.ObservedPointer;
import io.queenlake.job.sink.committer.PointerStore;
import java.io.PrintStream;
import java.util.Arrays;
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
            CliOption.option("queue", "Q[,Q2]", "the queues (else " + Setting.QUEUES.envName()
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
        PointerStore pointers = new PointerStore(client, sink);
        try {
            List<String> queues = queues(a.get("queue", env.get(Setting.QUEUES.envName())), client);
            long safeTime = pointers.safeTimeMicros();
            out.println("broker " + url + ", sink '" + sink + "', tenant " + tenant);
            if (queues.isEmpty()) {
                out.println("the broker has no queue yet");
            }
            for (String queue : queues) {
                out.println(status(queue, pointers, client, safeTime).line());
            }
        } catch (QueenException e) {
            throw new IllegalStateException("the broker at " + url + " did not answer (" + e.getMessage()
                    + "): check --queen-url (QUEEN_URL), the token (QUEEN_TOKEN) and the tenant (QUEEN_TENANT).", e);
        }
        return 0;
    }

    private static List<String> queues(String named, QueenClient client) {
        if (named == null || named.isBlank() || named.strip().equals("*")) {
            return client.queues().stream().sorted().toList();
        }
        return Arrays.stream(named.split(",")).map(String::strip).filter(q -> !q.isEmpty()).toList();
    }

    private static QueueStatus status(String queue, PointerStore pointers, QueenClient client, long safeTime) {
        ObservedPointer pointer = pointers.read(queue);
        Optional<KvRow> leaseRow = get(client, pointers.leaseKey(queue));
        Optional<LeaseDoc> lease = Optional.empty();
        boolean unreadable = false;
        if (leaseRow.isPresent()) {
            try {
                lease = Optional.of(LeaseDoc.fromJson(leaseRow.get().value().utf8()));
            } catch (RuntimeException e) {
                unreadable = true;
            }
        }
        OptionalLong expires = leaseRow.map(KvRow::expiresAtMicros).orElse(OptionalLong.empty());
        return new QueueStatus(queue, pointer.pointer(), pointer.version(), lease, unreadable, expires, safeTime);
    }

    private static Optional<KvRow> get(QueenClient client, String key) {
        KvAnswer answer = client.kv(List.of(KvOp.get(PointerStore.NAMESPACE, key)));
        if (answer instanceof KvAnswer.Results results && results.get(0) instanceof KvResult.Got got) {
            return got.row();
        }
        throw new IllegalStateException("the broker answered a KV get of " + key + " with " + answer
                + ": check that QUEEN_URL points at a Queen broker.");
    }
}
