package io.queenlake.iceberg;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/**
 * The Iceberg table name of a queue: what every catalog and engine accepts unquoted (Glue and
 * Trino fold to lower case and want {@code [a-z0-9_]}). A queue whose name already is such a name
 * keeps it ({@code orders}); any other gets its name with every run of other characters replaced by
 * {@code _}, lower-cased, and {@code _} plus the first 8 hex digits of the SHA-256 of its UTF-8 name,
 * so two queues never share a table ({@code Orders/EU} becomes {@code orders_eu_5d5a65ff}).
 */
public final class QueueTableName {

    private QueueTableName() {}

    public static String of(String queue) {
        if (queue.matches("[a-z][a-z0-9_]{0,99}") && !queue.matches(".*_[0-9a-f]{8}")) {
            return queue;
        }
        String readable = queue.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_").replaceAll("^_+|_+$", "");
        if (readable.isEmpty() || !Character.isLetter(readable.charAt(0))) {
            readable = "q_" + readable;
        }
        if (readable.length() > 90) {
            readable = readable.substring(0, 90);
        }
        return readable.replaceAll("_+$", "") + "_" + hash(queue);
    }

    private static String hash(String queue) {
        try {
            byte[] sha = MessageDigest.getInstance("SHA-256").digest(queue.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(sha, 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-256", e);
        }
    }
}
