package io.queenlake.job.cli;

import io.queenlake.devstack.broker.DevBroker;
import io.queenlake.devstack.broker.DevBrokerOptions;
import java.nio.file.Path;
import java.util.List;

/** {@code ./queen-lake dev-broker}: the Queen-wire-compatible dev broker alone, until stopped. */
final class DevBrokerCommand implements Subcommand {

    private static final List<CliOption> OPTIONS = List.of(
            CliOption.option("port", "P", "the port; 0 picks a free one").byDefault(6632),
            CliOption.option("host", "H", "the address it listens on").byDefault("127.0.0.1"),
            CliOption.option("data-dir", "DIR", "keep the log and the KV store in DIR; without it they live in memory"),
            CliOption.option("token", "T", "require this bearer token"),
            CliOption.flag("render-payloads", "answer payloads as Queen's raft broker renders them over HTTP"
                    + " (no whitespace, keys sorted, numbers re-printed), not as stored"),
            CliOption.option("kv-latency-ms", "N", "every KV call waits N ms before it is served, as a real broker's"
                    + " round trip; 0 for none").byDefault(0),
            CliOption.option("kv-write-rate", "N", "allow each tenant N KV write calls a second (Queen allows about 100"
                    + " over HTTP); a call over it is answered 429 with Retry-After and changes nothing; 0 for no limit")
                    .byDefault(0));

    private static final Help HELP = new Help(
            "run the dev broker (Queen's wire protocol, for local runs and tests) alone, until Ctrl-C", OPTIONS);

    @Override
    public Help help() {
        return HELP;
    }

    @Override
    public int run(String[] args) throws Exception {
        CommandArgs a = CommandArgs.parse("dev-broker", args, OPTIONS);
        DevBrokerOptions.Builder options = DevBrokerOptions.builder()
                .host(a.get("host"))
                .port(a.intValue("port", 0, 65535))
                .renderPayloads(a.flag("render-payloads"))
                .kvLatencyMs(a.longValue("kv-latency-ms", 0, 60_000))
                .kvWriteRate(a.intValue("kv-write-rate", 0, 1_000_000));
        String dataDir = a.get("data-dir");
        if (dataDir != null) {
            options.dataDir(Path.of(dataDir));
        }
        String token = a.get("token");
        if (token != null) {
            options.token(token);
        }
        DevBrokerOptions built = options.build();
        DevBroker broker = DevBroker.start(built);
        System.out.println("dev broker listening on " + broker.url()
                + (dataDir == null ? " (in memory)" : " (data in " + Path.of(dataDir).toAbsolutePath() + ")")
                + (token == null ? "" : " (bearer token required)")
                + (a.flag("render-payloads") ? " (payloads rendered as the raft broker renders them)" : "")
                + (built.kvLatencyMs() == 0 ? "" : " (" + built.kvLatencyMs() + " ms a KV call)")
                + (built.kvWriteRate() == 0 ? "" : " (" + built.kvWriteRate() + " KV write calls a second per tenant)")
                + "; Ctrl-C to stop");
        UntilStopped.await(broker, "dev broker");
        return 0;
    }
}
