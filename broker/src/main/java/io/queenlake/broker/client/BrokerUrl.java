package io.queenlake.broker.client;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * The one rule for a broker's base URL ({@code QUEEN_URL}), shared by the client, the source
 * builder and the job's settings: {@code http(s)://host[:port][/path]}, surrounding blanks and
 * trailing slashes dropped; no query, fragment or user. It names one broker node: safeTime is per
 * node, so never a round-robin balancer.
 */
public final class BrokerUrl {

    private BrokerUrl() {}

    /**
     * @return the normalised base URL
     * @throws IllegalArgumentException whose message is the reason alone ("has no host", ...), for
     *     the caller to put after the value it names
     */
    public static String normalize(String raw) {
        if (raw == null || raw.isBlank()) {
            throw new IllegalArgumentException("is missing");
        }
        String trimmed = raw.strip();
        while (trimmed.endsWith("/")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        URI uri;
        try {
            uri = new URI(trimmed);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("is not a URL");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new IllegalArgumentException("must start with http:// or https://");
        }
        if (uri.getHost() == null || uri.getHost().isEmpty()) {
            throw new IllegalArgumentException("has no host");
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null || uri.getRawUserInfo() != null) {
            throw new IllegalArgumentException("must not carry a query, fragment or user");
        }
        return trimmed;
    }
}
