package io.queenlake.bench.e2e;

import io.queenlake.format.key.SidecarKeys;
import io.queenlake.format.manifest.ManifestJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.stream.Stream;

/**
 * Whether the lake in a bucket folder has a manifest reaching past each queue's last stamp, read off
 * the folder the embedded S3 server keeps: no request to the broker or the S3 server. A commit
 * writes the manifest just before it moves the KV pointer, so a run polls this first and reads the
 * pointers (the truth) only once it holds: polling the pointers themselves 20 times a second put
 * about 350 KV calls into every lake run, on the CPU the run is measured by.
 */
final class ManifestWatch {

    private final Path bucketDir;
    private final Map<String, SidecarKeys> sidecars;
    /** A queue's newest manifest read so far. */
    private record Newest(long k, long tEnd) {}

    private final Map<String, Newest> newest = new HashMap<>();
    /** Why the newest manifest of a queue could not be read at the last look, if it could not. */
    private String unreadable = "";

    ManifestWatch(Path bucketDir, Map<String, SidecarKeys> sidecarsByQueue) {
        this.bucketDir = bucketDir;
        this.sidecars = Map.copyOf(sidecarsByQueue);
    }

    /** Whether every queue has a manifest with {@code tEnd} above its last stamp. */
    boolean reachesPast(Map<String, Long> lastStamps) throws IOException {
        for (Map.Entry<String, SidecarKeys> queue : sidecars.entrySet()) {
            Newest manifest = refresh(queue.getKey(), queue.getValue());
            if (manifest == null || manifest.tEnd() <= lastStamps.get(queue.getKey())) {
                return false;
            }
        }
        return true;
    }

    /** What kept the last look from reading a manifest, or empty. */
    String problem() {
        return unreadable;
    }

    private Newest refresh(String queue, SidecarKeys keys) throws IOException {
        Path dir = bucketDir.resolve(keys.manifestDirectory());
        if (!Files.isDirectory(dir)) {
            return null;
        }
        long newestK = -1;
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                OptionalLong k = keys.parseManifest(keys.manifestDirectory() + f.getFileName());
                if (k.isPresent()) {
                    newestK = Math.max(newestK, k.getAsLong());
                }
            }
        } catch (UncheckedIOException e) {
            if (e.getCause() instanceof NoSuchFileException) {
                return newest.get(queue); // the server moved a file while we listed: look again next poll
            }
            throw e;
        }
        Newest known = newest.get(queue);
        if (newestK < 0 || (known != null && known.k() == newestK)) {
            return known;
        }
        try {
            byte[] json = Files.readAllBytes(bucketDir.resolve(keys.manifest(newestK)));
            Newest read = new Newest(newestK, ManifestJson.read(json).tEnd());
            newest.put(queue, read);
            unreadable = "";
            return read;
        } catch (NoSuchFileException | RuntimeException e) {
            // The server renames a finished object into place, so this is not a half-written file:
            // remembered for the run's timeout message, in case it never clears.
            unreadable = "manifest " + keys.manifest(newestK) + " unreadable: " + e;
            return known;
        }
    }
}
