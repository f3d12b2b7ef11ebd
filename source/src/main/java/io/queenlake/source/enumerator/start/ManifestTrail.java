package io.queenlake.source.enumerator.start;

import io.queenlake.format.key.SidecarKeys;
import io.queenlake.format.manifest.Committed;
import io.queenlake.format.manifest.Intent;
import java.io.IOException;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * Whether a queue's lake holds manifests beyond what its commit pointer accounts for: the pointer's
 * {@code k}, plus one when an open intent names window {@code k + 1} (a crashed commit may have
 * written that manifest; the committer finishes it under the same key). Anything above is a window
 * committed before the KV forgot it ({@link LakeAhead}).
 *
 * <p>Costs one existence check (a HEAD on S3) of manifest {@code k + 1} (or {@code k + 2}) per
 * queue, whatever the lake's age: manifests are written in {@code k} order, one window at a time,
 * so the lake is ahead exactly when that one exists. Only then is the highest one looked for, by
 * doubling and halving ({@code O(log n)} checks), to name it. Flink's {@link FileSystem} has no
 * listing from a key (S3's {@code start-after}); listing the queue's manifest folder would cost a
 * page per thousand windows, more as the lake ages. Blocking: run it off the coordinator thread.
 */
@Internal
public final class ManifestTrail {

    private final LakeRoot root;
    private final String tenant;

    public ManifestTrail(LakeRoot root, String tenant) {
        this.root = root;
        this.tenant = tenant;
    }

    /**
     * The queue's lake ahead of the pointer, or empty when no manifest exists beyond the window
     * the pointer and an open intent account for.
     */
    public Optional<LakeAhead> check(String queue, String pointerKey, Optional<Committed> pointer,
            Optional<Intent> intent) throws IOException {
        long accounted = accountedFor(pointer, intent);
        long highest = highestAfter(queue, accounted);
        if (highest == accounted) {
            return Optional.empty();
        }
        return Optional.of(new LakeAhead(queue, pointerKey,
                pointer.map(p -> OptionalLong.of(p.k())).orElse(OptionalLong.empty()), highest));
    }

    /** The last window a pointer and an open intent account for: the pointer's {@code k}, plus one for an open intent. */
    public static long accountedFor(Optional<Committed> pointer, Optional<Intent> intent) {
        long k = pointer.map(Committed::k).orElse(0L);
        return intent.filter(i -> i.k() == k + 1).isPresent() ? k + 1 : k;
    }

    /**
     * The highest {@code n > after} such that manifests {@code after + 1 .. n} exist (found by
     * doubling, then halving), or {@code after} when manifest {@code after + 1} does not.
     */
    public long highestAfter(String queue, long after) throws IOException {
        SidecarKeys keys = new SidecarKeys(root.prefix(), tenant, queue);
        Path first = new Path(root.path(keys.manifest(after + 1)));
        FileSystem fs = first.getFileSystem();
        if (!fs.exists(first)) {
            return after;
        }
        long present = after + 1;
        long absent;
        long step = 1;
        while (true) {
            long probe = present + step;
            if (exists(fs, keys, probe)) {
                present = probe;
                step *= 2;
            } else {
                absent = probe;
                break;
            }
        }
        while (absent - present > 1) {
            long mid = present + (absent - present) / 2;
            if (exists(fs, keys, mid)) {
                present = mid;
            } else {
                absent = mid;
            }
        }
        return present;
    }

    private boolean exists(FileSystem fs, SidecarKeys keys, long k) throws IOException {
        return fs.exists(new Path(root.path(keys.manifest(k))));
    }
}
