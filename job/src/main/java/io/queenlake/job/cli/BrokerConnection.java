package io.queenlake.job.cli;

import io.queenlake.broker.client.HttpQueenClient;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.job.config.Setting;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * How the broker commands (push, status) reach the broker: {@code --queen-url}, {@code --queen-token},
 * {@code --queen-tenant} as the job's settings name them (with the short {@code --url},
 * {@code --token}, {@code --tenant}), else {@code QUEEN_URL}, {@code QUEEN_TOKEN},
 * {@code QUEEN_TENANT}, else the defaults.
 */
record BrokerConnection(String url, String token, String tenant) {

    static final List<CliOption> OPTIONS = List.of(
            option(Setting.QUEEN_URL, "U", "the broker").alias("url"),
            option(Setting.QUEEN_TOKEN, "T", "its bearer token").alias("token"),
            option(Setting.QUEEN_TENANT, "UUID", "its tenant").alias("tenant"));

    static BrokerConnection from(CommandArgs a, Map<String, String> env) {
        return new BrokerConnection(
                pick(a, env, Setting.QUEEN_URL),
                pick(a, env, Setting.QUEEN_TOKEN),
                pick(a, env, Setting.QUEEN_TENANT));
    }

    /** The option of a broker setting, named as the job's argument; its fallback the variable, then the default. */
    private static CliOption option(Setting setting, String value, String help) {
        String fallback = "else " + setting.envName()
                + (setting.defaultValue() == null ? "" : ", else " + setting.defaultValue());
        return CliOption.option(setting.argName(), value, help + " (" + fallback + ")");
    }

    QueenClient client(String command) {
        try {
            return HttpQueenClient.builder()
                    .baseUrl(url)
                    .token(token == null || token.isBlank() ? null : token)
                    .tenant(tenant == null || tenant.equals(Setting.QUEEN_TENANT.defaultValue()) ? null : tenant)
                    .requestTimeout(Duration.ofSeconds(10))
                    .build();
        } catch (IllegalArgumentException e) {
            throw new UsageException(command + ": " + e.getMessage());
        }
    }

    private static String pick(CommandArgs a, Map<String, String> env, Setting setting) {
        String value = a.get(setting.argName(), env.get(setting.envName()));
        return value == null || value.isBlank() ? setting.defaultValue() : value;
    }
}
