package io.queenlake.job.repair;

import io.queenlake.format.key.Prefix;
import io.queenlake.format.key.SidecarKeys;
import io.queenlake.format.manifest.Committed;
import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.manifest.ManifestJson;
import io.queenlake.format.manifest.ManifestObject;
import io.queenlake.format.model.Micros;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Finds how far one queue's lake is complete ({@link Proof}), reading only the bucket: the
 * manifests folder listed once, then every manifest of the unbroken run {@code 1..n} and every
 * object they name checked on a bounded pool (a lake of thousands of windows is checked
 * side by side), and the results walked in {@code k} order up to the first window that fails.
 * A missing, unparsable or foreign manifest, a broken chain ({@code tStart} of window
 * {@code i + 1} before {@code tEnd} of window {@code i}), a missing object or one of another
 * length or sha256 ends the proof; a bucket that cannot be read fails the scan
 * ({@link IOException}), so an outage is never taken for a gap in the lake.
 */
public final class LakeScan {

    /** Bucket reads in flight at once. */
    public static final int THREADS = 16;

    /** One window's manifest, or why it is not proven (its own fault, not the chain's). */
    private record Window(Manifest manifest, String problem) {}

    private final BucketReader bucket;
    private final Prefix prefix;
    private final String sink;
    private final boolean checkSha256;
    private final int threads;

    private LakeScan(BucketReader bucket, Prefix prefix, String sink, boolean checkSha256, int threads) {
        this.bucket = bucket;
        this.prefix = prefix;
        this.sink = sink;
        this.checkSha256 = checkSha256;
        this.threads = threads;
    }

    /** A scan of the lake under {@code root} ({@code s3://bucket}, {@code file:///dir/bucket}) for {@code sink}'s windows. */
    public static LakeScan open(String root, Prefix prefix, String sink, boolean checkSha256) throws IOException {
        return new LakeScan(new BucketReader(root), prefix, sink, checkSha256, THREADS);
    }

    /** The listing prefix of the queue's manifests. */
    public String manifestFolder(String tenant, String queue) {
        return new SidecarKeys(prefix, tenant, queue).manifestDirectory();
    }

    public Proof scan(String tenant, String queue) throws IOException {
        SidecarKeys sidecars = new SidecarKeys(prefix, tenant, queue);
        TreeSet<Long> present = new TreeSet<>();
        for (String key : bucket.list(sidecars.manifestDirectory())) {
            OptionalLong k = sidecars.parseManifest(key);
            if (k.isPresent() && k.getAsLong() > 0) {
                present.add(k.getAsLong());
            }
        }
        if (present.isEmpty()) {
            return new Proof(0, 0, 0, 0, Optional.empty(), Optional.empty(), checkSha256);
        }
        long highest = present.last();
        long run = 0;
        while (present.contains(run + 1)) {
            run++;
        }
        AtomicInteger n = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "repair-pointer-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        try {
            List<CompletableFuture<Window>> windows = new ArrayList<>();
            for (long k = 1; k <= run; k++) {
                windows.add(check(k, sidecars, tenant, queue, pool));
            }
            return walk(windows, sidecars, highest);
        } finally {
            pool.shutdownNow();
        }
    }

    /** Windows {@code 1..} in order, up to the first that is missing, fails its own check or does not chain. */
    private Proof walk(List<CompletableFuture<Window>> windows, SidecarKeys sidecars, long highest) throws IOException {
        Manifest last = null;
        long objects = 0;
        long records = 0;
        String stop = null;
        for (long k = 1; k <= highest; k++) {
            if (k > windows.size()) {
                stop = "manifest " + k + " (" + sidecars.manifest(k) + ") is missing";
                break;
            }
            Window w = join(windows.get((int) (k - 1)));
            if (w.problem() != null) {
                stop = w.problem();
                break;
            }
            Manifest m = w.manifest();
            if (last != null && m.tStart() < last.tEnd()) {
                stop = "manifest " + k + " starts at " + Micros.render(m.tStart()) + ", before manifest " + last.k()
                        + " ends at " + Micros.render(last.tEnd()) + " (the windows do not chain)";
                break;
            }
            last = m;
            objects += m.objects().size();
            records += m.records();
        }
        long k = last == null ? 0 : last.k();
        Optional<Committed> pointer = last == null ? Optional.empty() : Optional.of(pointerOf(last, sidecars.manifest(k)));
        return new Proof(highest, k, objects, records, Optional.ofNullable(stop), pointer, checkSha256);
    }

    /** The pointer the committer writes for a stamped manifest ({@code QueueCommitter.pointerOf}). */
    static Committed pointerOf(Manifest m, String manifestKey) {
        return new Committed(m.k(), m.tEnd(), manifestKey, m.records(), m.bytes(), m.committedAtMicros() / 1000);
    }

    private CompletableFuture<Window> check(long k, SidecarKeys sidecars, String tenant, String queue,
            ExecutorService pool) {
        return CompletableFuture.supplyAsync(() -> manifest(k, sidecars, tenant, queue), pool)
                .thenCompose(w -> w.problem() != null ? CompletableFuture.completedFuture(w) : objects(w.manifest(), pool));
    }

    /** Manifest {@code k} read, parsed and checked to be this queue's window {@code k}, committed. */
    private Window manifest(long k, SidecarKeys sidecars, String tenant, String queue) {
        String key = sidecars.manifest(k);
        byte[] body;
        try {
            body = bucket.read(key);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + key + ": " + e.getMessage(), e);
        }
        if (body == null) {
            return new Window(null, "manifest " + k + " (" + key + ") is missing");
        }
        Manifest m;
        try {
            m = ManifestJson.read(body);
        } catch (RuntimeException e) {
            return new Window(null, "manifest " + k + " (" + key + ") does not parse (" + e.getMessage() + ")");
        }
        if (m.k() != k || !m.tenant().equals(tenant) || !m.queue().equals(queue)) {
            return new Window(null, "manifest " + k + " (" + key + ") names window " + m.k() + " of queue '" + m.queue()
                    + "' in tenant " + m.tenant());
        }
        if (!m.sink().equals(sink)) {
            return new Window(null, "manifest " + k + " (" + key + ") was written by sink '" + m.sink() + "', not '"
                    + sink + "'");
        }
        if (!m.isStamped()) {
            return new Window(null, "manifest " + k + " (" + key + ") has no committedAt, so it was never committed");
        }
        return new Window(m, null);
    }

    /** The window with the first problem of its objects, in the manifest's order, checked side by side. */
    private CompletableFuture<Window> objects(Manifest m, ExecutorService pool) {
        List<CompletableFuture<String>> checks = new ArrayList<>();
        for (ManifestObject o : m.objects()) {
            checks.add(CompletableFuture.supplyAsync(() -> object(m.k(), o), pool));
        }
        return CompletableFuture.allOf(checks.toArray(CompletableFuture[]::new)).thenApply(done -> new Window(m,
                checks.stream().map(CompletableFuture::join).filter(Objects::nonNull).findFirst().orElse(null)));
    }

    /** Why one object does not match its manifest, or null when it does. */
    private String object(long k, ManifestObject o) {
        try {
            OptionalLong length = bucket.length(o.key());
            if (length.isEmpty()) {
                return "object " + o.key() + " of manifest " + k + " is missing";
            }
            if (length.getAsLong() != o.bytes()) {
                return "object " + o.key() + " of manifest " + k + " is " + length.getAsLong()
                        + " bytes where the manifest says " + o.bytes();
            }
            if (checkSha256) {
                String sha = bucket.sha256(o.key());
                if (sha == null) {
                    return "object " + o.key() + " of manifest " + k + " is missing";
                }
                if (!sha.equals(o.sha256())) {
                    return "object " + o.key() + " of manifest " + k + " has sha256 " + sha + " where the manifest says "
                            + o.sha256();
                }
            }
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + o.key() + ": " + e.getMessage(), e);
        }
    }

    private static Window join(CompletableFuture<Window> window) throws IOException {
        try {
            return window.join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof UncheckedIOException io) {
                throw new IOException(io.getMessage(), io.getCause());
            }
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            throw e;
        }
    }
}
