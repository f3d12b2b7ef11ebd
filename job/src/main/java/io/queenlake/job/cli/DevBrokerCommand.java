package io.queenlake.job.cli;

import io.queenlake.devstack.broker.DevBroker;
import io.queenlake.devstack.broker.DevBrokerOptions;
import java.nio.file.Path;
import java.util.Set;

/** {@code ./queen-lake dev-broker}: the Queen-wire-compatible dev broker alone, until stopped. */
final class DevBrokerCommand implements Subcommand {

    @Override
    public String summary() {
        return "run the dev broker: --port 6632 [--host 127.0.0.1] [--data-dir DIR] [--token T]";
    }

    @Override
    public int run(String[] args) throws Exception {
        CommandArgs a = CommandArgs.parse("dev-broker", args, Set.of("port", "host", "data-dir", "token"), Set.of());
        DevBrokerOptions.Builder options = DevBrokerOptions.builder()
                .host(a.get("host", "127.0.0.1"))
                .port(a.intValue("port", 6632, 0, 65535));
        String dataDir = a.get("data-dir", null);
        if (dataDir != null) {
            options.dataDir(Path.of(dataDir));
        }
        String token = a.get("token", null);
        if (token != null) {
            options.token(token);
        }
        DevBroker broker = DevBroker.start(options.build());
        System.out.println("dev broker listening on " + broker.url()
                + (dataDir == null ? " (in memory)" : " (data in " + Path.of(dataDir).toAbsolutePath() + ")")
                + (token == null ? "" : " (bearer token required)")
                + "; Ctrl-C to stop");
        UntilStopped.await(broker, "dev broker");
        return 0;
    }
}
