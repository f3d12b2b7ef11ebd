package io.queenlake.job.cli;

import io.queenlake.broker.client.HttpQueenClient;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.job.config.Setting;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * How the broker commands (push, status) reach the broker: {@code --queen-url}, {@code --queen-token},
 * {@code --queen-tenant} as the job's settings name them (with the short {@code --url},
 * {@code --token}, {@code --tenant}), else {@code QUEEN_URL}, {@code QUEEN_TOKEN},
 * {@code QUEEN_TENANT}, else the defaults.
 */
record BrokerConnection(String url, String token, String tenant) {

    static final Set<String> OPTIONS = Set.of("queen-url", "queen-token", "queen-tenant", "url", "token", "tenant");

    static BrokerConnection from(CommandArgs a, Map<String, String> env) {
        return new BrokerConnection(
                pick(a, env, "queen-url", "url", Setting.QUEEN_URL),
                pick(a, env, "queen-token", "token", Setting.QUEEN_TOKEN),
                pick(a, env, "queen-tenant", "tenant", Setting.QUEEN_TENANT));
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

    private static String pick(CommandArgs a, Map<String, String> env, String name, String shortName, Setting setting) {
        String value = a.get(name, a.get(shortName, env.get(setting.envName())));
        return value == null || value.isBlank() ? setting.defaultValue() : value;
    }
}
