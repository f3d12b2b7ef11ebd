package io.queenlake.format.key;

import io.queenlake.format.model.Align;
import io.queenlake.format.model.Layout;
import io.queenlake.format.model.WindowBounds;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;

/**
 * Whether every key a queue's lake objects can have fits in S3's limit of {@value #MAX_KEY_BYTES}
 * bytes (UTF-8; escaped names are ASCII, so characters are bytes). The bound is the longest of the
 * keys the lake writes for a queue, rendered by the same code that writes them, with every
 * variable part at its widest:
 * <ul>
 *   <li>a data object: an {@code hour=} directory (whatever the alignment), window number 10 digits,
 *       stamps 16 digits (every time before the year 2286), the longest extension of the format, and
 *       under the per-partition layout {@code -p-<partition>-<first>-<last>} with both offsets at 19
 *       digits and the partition named {@code partitionReserve} (the escaped length of the longest
 *       partition name to allow for: 0 at start, when none is known);
 *   <li>manifest {@code k} and checkpoint {@code k}, each with a 10-digit {@code k}.
 * </ul>
 * Keys that name no queue (the probe's, the bucket checkpoint's listing) are shorter than these.
 */
public record KeyBudget(String prefix, String tenant, Layout layout, String extension) implements Serializable {

    private static final long serialVersionUID = 1L;

    /** S3's limit on a key's length, in UTF-8 bytes. */
    public static final int MAX_KEY_BYTES = 1024;

    private static final long WIDEST_K = 9_999_999_999L;
    private static final long WIDEST_STAMP = 9_999_999_999_999_998L;

    /** {@code prefix} as its value: the budget ships with the job graph, and {@link Prefix} is not serializable. */
    public KeyBudget {
        new Prefix(Objects.requireNonNull(prefix, "prefix"));
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(layout, "layout");
        Objects.requireNonNull(extension, "extension");
    }

    /** The longest key queue {@code queue} can produce, with partition names of {@code partitionReserve} escaped bytes. */
    public static KeyBudget of(Prefix prefix, String tenant, Layout layout, String extension) {
        return new KeyBudget(prefix.value(), tenant, layout, extension);
    }

    public String longestKey(String queue, int partitionReserve) {
        Prefix prefix = new Prefix(this.prefix);
        DataKey.Builder data = DataKey.forWindow(WIDEST_K, new WindowBounds(WIDEST_STAMP, WIDEST_STAMP + 1))
                .prefix(prefix).tenant(tenant).queue(queue).align(Align.HOUR).extension(extension);
        if (layout == Layout.PER_PARTITION) {
            data.slice(new DataKey.PartitionSlice("p".repeat(partitionReserve), Long.MAX_VALUE, Long.MAX_VALUE));
        }
        SidecarKeys sidecars = new SidecarKeys(prefix, tenant, queue);
        String longest = data.build().render();
        for (String key : new String[] {sidecars.manifest(WIDEST_K), sidecars.checkpoint(WIDEST_K)}) {
            if (bytes(key) > bytes(longest)) {
                longest = key;
            }
        }
        return longest;
    }

    /**
     * Why {@code queue} cannot be mirrored, in one sentence naming it, or empty when its longest key
     * fits (with no partition name allowed for: a per-partition key adds the escaped partition name).
     */
    public Optional<String> refusal(String queue) {
        String longest = longestKey(queue, 0);
        int length = bytes(longest);
        if (length <= MAX_KEY_BYTES) {
            return Optional.empty();
        }
        return Optional.of("queue '" + queue + "' cannot be mirrored: its longest lake key would be " + length
                + " bytes, over S3's limit of " + MAX_KEY_BYTES + " (the escaped queue name alone takes "
                + bytes(NameEscaping.escape(queue)) + ", key " + longest.substring(0, Math.min(80, longest.length()))
                + "...): rename the queue or shorten QUEEN_S3_PREFIX");
    }

    private static int bytes(String key) {
        return key.getBytes(StandardCharsets.UTF_8).length;
    }
}
