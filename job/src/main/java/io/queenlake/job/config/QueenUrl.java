package io.queenlake.job.config;

import java.net.URI;
import java.net.URISyntaxException;

/** Checks {@code QUEEN_URL}: one broker node, {@code http(s)://host[:port]}, trailing slashes dropped. */
final class QueenUrl {

    private QueenUrl() {}

    static String check(String raw, Origin origin) {
        String trimmed = raw.strip();
        while (trimmed.endsWith("/")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        URI uri;
        try {
            uri = new URI(trimmed);
        } catch (URISyntaxException e) {
            throw Setting.QUEEN_URL.refusal(raw, origin, "is not a URL");
        }
        if (uri.getScheme() == null || !(uri.getScheme().equals("http") || uri.getScheme().equals("https"))
                || uri.getHost() == null) {
            throw Setting.QUEEN_URL.refusal(raw, origin, "is not an http(s) URL with a host");
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null || uri.getRawUserInfo() != null) {
            throw Setting.QUEEN_URL.refusal(raw, origin, "carries a query, fragment or user");
        }
        return trimmed;
    }
}
