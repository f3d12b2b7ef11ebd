package io.queenlake.bench.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How many records a FileSink run has committed, seen as cheaply as the lake's pointer: the bucket's
 * listing (FileSink's committer completes a part's upload, and the embedded S3 server renames it into
 * place, so a visible part is a committed one) matched by bucket and size against the parts the
 * writers finished and counted ({@link FinishedParts}). Nothing is opened or decompressed: that is
 * {@link FileSinkAudit}'s, after the clock stops. Two parts of one bucket and size take the counts
 * registered for that size in turn; the audit catches a miscount.
 */
final class PartWatch {

    private record Key(String bucketId, long bytes) {}

    private final BucketFolder folder;
    private final String run;
    private final String suffix;

    PartWatch(BucketFolder folder, String run, String suffix) {
        this.folder = folder;
        this.run = run;
        this.suffix = suffix;
    }

    long committedRecords() throws IOException {
        Map<Key, List<Long>> finished = new HashMap<>();
        for (FinishedParts.Part p : FinishedParts.of(run)) {
            finished.computeIfAbsent(new Key(p.bucketId(), p.bytes()), k -> new ArrayList<>()).add(p.records());
        }
        Map<Key, Integer> matched = new HashMap<>();
        long records = 0;
        for (Path f : folder.objects()) {
            String name = f.getFileName().toString();
            if (!name.startsWith("part-") || !name.endsWith(suffix)) {
                continue;
            }
            Key key = new Key(f.getParent().getFileName().toString(), size(f));
            List<Long> counts = finished.getOrDefault(key, List.of());
            int i = matched.merge(key, 1, Integer::sum) - 1;
            if (i < counts.size()) {
                records += counts.get(i);
            }
        }
        return records;
    }

    private static long size(Path f) throws IOException {
        try {
            return Files.size(f);
        } catch (NoSuchFileException e) {
            return -1;
        }
    }
}
