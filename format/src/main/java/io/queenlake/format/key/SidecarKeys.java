package io.queenlake.format.key;

import java.util.Collection;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The keys of one queue's sidecars under {@code <prefix>/_queen/} (not a Hive partition, so a
 * reader globbing data never sees them): manifests {@code windows/<k:10>.json} and checkpoints
 * {@code checkpoint/<k:10>.json.zst}. Parsers skip keys they do not recognise; they never guess.
 */
public record SidecarKeys(Prefix prefix, String tenant, String queue) {

    static final String MANIFEST_SUFFIX = ".json";
    static final String CHECKPOINT_SUFFIX = ".json.zst";

    public SidecarKeys {
        Objects.requireNonNull(prefix, "prefix");
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(queue, "queue");
    }

    /** {@code <prefix>/_queen/tenant=<T>/queue=<Q>}. */
    public String queueDirectory() {
        return prefix.value() + "/_queen/tenant=" + NameEscaping.escape(tenant) + "/queue=" + NameEscaping.escape(queue);
    }

    /** The listing prefix of this queue's manifests, ending in a slash. */
    public String manifestDirectory() {
        return queueDirectory() + "/windows/";
    }

    /** The listing prefix of this queue's checkpoints, ending in a slash. */
    public String checkpointDirectory() {
        return queueDirectory() + "/checkpoint/";
    }

    public String manifest(long k) {
        return manifestDirectory() + DataKey.pad(k, DataKey.K_WIDTH) + MANIFEST_SUFFIX;
    }

    public String checkpoint(long k) {
        return checkpointDirectory() + DataKey.pad(k, DataKey.K_WIDTH) + CHECKPOINT_SUFFIX;
    }

    /** The window number of one of this queue's manifest keys, or empty for any other key. */
    public OptionalLong parseManifest(String key) {
        return parseUnder(key, manifestDirectory(), MANIFEST_SUFFIX);
    }

    /** The window number of one of this queue's checkpoint keys, or empty for any other key. */
    public OptionalLong parseCheckpoint(String key) {
        return parseUnder(key, checkpointDirectory(), CHECKPOINT_SUFFIX);
    }

    /**
     * The key of this queue's newest checkpoint at or below {@code atMostK} (the committed window),
     * skipping every key that is not one of its checkpoints.
     */
    public Optional<String> latestCheckpoint(Collection<String> keys, long atMostK) {
        String best = null;
        long bestK = -1;
        for (String key : keys) {
            OptionalLong k = parseCheckpoint(key);
            if (k.isPresent() && k.getAsLong() <= atMostK && k.getAsLong() > bestK) {
                bestK = k.getAsLong();
                best = key;
            }
        }
        return Optional.ofNullable(best);
    }

    private static OptionalLong parseUnder(String key, String directory, String suffix) {
        if (key == null || !key.startsWith(directory) || !key.endsWith(suffix)) {
            return OptionalLong.empty();
        }
        String digits = key.substring(directory.length(), key.length() - suffix.length());
        if (digits.length() != DataKey.K_WIDTH) {
            return OptionalLong.empty();
        }
        for (int i = 0; i < digits.length(); i++) {
            if (digits.charAt(i) < '0' || digits.charAt(i) > '9') {
                return OptionalLong.empty();
            }
        }
        return OptionalLong.of(Long.parseLong(digits));
    }
}
