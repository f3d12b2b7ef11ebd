package io.queenlake.job.config;

import io.queenlake.broker.client.BrokerUrl;

/** Checks {@code QUEEN_URL} with the client's own rule ({@link BrokerUrl}), as a setting refusal. */
final class QueenUrl {

    private QueenUrl() {}

    static String check(String raw, Origin origin) {
        try {
            return BrokerUrl.normalize(raw);
        } catch (IllegalArgumentException e) {
            throw Setting.QUEEN_URL.refusal(raw, origin, e.getMessage());
        }
    }
}
