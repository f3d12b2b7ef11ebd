package io.queenlake.broker.client;

import java.util.regex.Pattern;

/**
 * The one rule for each name the broker's calls carry, shared (as {@link BrokerUrl} is) by the
 * client, the source's options, the job's settings, the lake sink and the dev broker: a tenant id,
 * sent as {@code x-queen-tenant}, a sink name, the {@code <sink>} of the KV keys
 * {@code s3:<sink>:<queue>:*}, and a bearer token's characters. Each refusal is the caller's, in
 * its own words.
 */
public final class QueenNames {

    /** A tenant id: a UUID, in either case. */
    public static final Pattern TENANT_ID =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    /** {@link #TENANT_ID}'s shape, as refusals spell it. */
    public static final String TENANT_ID_SHAPE = "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx";
    /** A sink name. */
    public static final Pattern SINK_NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    /** {@link #SINK_NAME} in words, for refusals and the README. */
    public static final String SINK_NAME_RULE = "1 to 64 of A-Z a-z 0-9 . _ -";

    private QueenNames() {}

    public static boolean isTenantId(String text) {
        return text != null && TENANT_ID.matcher(text).matches();
    }

    public static boolean isSinkName(String text) {
        return text != null && SINK_NAME.matcher(text).matches();
    }

    /** Whether a bearer token is bare: printable ASCII without spaces, so no {@code Bearer } in front. */
    public static boolean isBareToken(String token) {
        return token != null && token.chars().allMatch(ch -> ch >= 0x21 && ch <= 0x7e);
    }
}
