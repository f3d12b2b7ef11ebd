package io.queenlake.devstack.s3;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.nio2blob.FilesystemNio2BlobStore;

/**
 * An S3 API server on 127.0.0.1 for the demo and the tests: S3Proxy in-process over its filesystem
 * store, SigV4 with one static key pair, path-style addressing, one bucket created at start.
 *
 * <p>It owns the server's life cycle ({@link #stop()}, {@link #restart()} on the same port and
 * folder, {@link #close()}) and the mapping from a bucket or key to the folder or file that holds
 * it: bucket {@code b} is the folder {@code dir/b} and key {@code a/b/c.jsonl} the file
 * {@code dir/b/a/b/c.jsonl}, so the lake is a plain folder DuckDB can read. Everything stored is on
 * disk, so a stop loses nothing but the requests in flight. It never serves anything but loopback
 * and never runs without authentication.
 */
public final class EmbeddedS3 implements AutoCloseable {

    /** The region every client of the server signs with (path-style, so it names no host). */
    public static final String REGION = "us-east-1";

    private static final String HOST = "127.0.0.1";
    /**
     * No graceful shutdown: a stop should look like an outage, and Jetty's graceful mode waited for
     * the idle keep-alive connections of a closed JDK-based client until it timed out.
     */
    private static final long STOP_TIMEOUT_MS = 0;
    /**
     * Requests served at once. Thousands of queues committing at once send more than the 32 tests
     * need (commits of 1,500 queues then waited over 10 s in the server's queue), while on two
     * cores 256 only crowd them. Threads start only when requests wait, so tests pay nothing for it.
     */
    private static final int JETTY_MAX_THREADS = 64;

    private final EmbeddedS3Options options;
    /** Object requests by S3 operation since the first start, restarts included. */
    private final Map<String, LongAdder> requests = new ConcurrentHashMap<>();
    /** Write requests with their encryption and checksum headers, since the first start. */
    private final Queue<S3Request> writes = new ConcurrentLinkedQueue<>();
    /** Writes of keys under this prefix answer 500; null for none. */
    private final AtomicReference<String> failingPrefix = new AtomicReference<>();
    /** Writes under this hold's prefix wait for its release; null for none. */
    private final AtomicReference<WriteHold> hold = new AtomicReference<>();
    private int port;
    private S3Proxy proxy;

    private EmbeddedS3(EmbeddedS3Options options) {
        this.options = options;
        this.port = options.port();
    }

    /** Creates the folder and the bucket if missing and serves them; returns once the port accepts. */
    public static EmbeddedS3 start(EmbeddedS3Options options) {
        EmbeddedS3 s3 = new EmbeddedS3(options);
        s3.serve();
        return s3;
    }

    /** {@code http://127.0.0.1:<port>} (https with a key store): the port bound at the first start, kept across restarts. */
    public URI endpoint() {
        return URI.create((options.tls() == null ? "http://" : "https://") + HOST + ":" + port);
    }

    public int port() {
        return port;
    }

    public String bucket() {
        return options.bucket();
    }

    public String accessKey() {
        return options.accessKey();
    }

    public String secretKey() {
        return options.secretKey();
    }

    /** The folder whose sub-folders are the buckets. */
    public Path dir() {
        return options.dir();
    }

    /** The folder that holds the objects of the bucket created at start. */
    public Path bucketDir() {
        return bucketDir(options.bucket());
    }

    /** The folder that holds the objects of {@code bucket} (it exists once the bucket does). */
    public Path bucketDir(String bucket) {
        return contained(options.dir(), bucket, "bucket");
    }

    /** The file that holds the object {@code key} of the start bucket once it is written. */
    public Path fileOf(String key) {
        return contained(bucketDir(), key, "key");
    }

    /**
     * Object requests served since the first start, by S3 operation name ({@code PutObject},
     * {@code HeadObject}, {@code DeleteObjects}, ...), in name order; {@link #requestsSince} counts a stretch.
     */
    public Map<String, Long> requests() {
        return CountingBlobStore.snapshot(requests);
    }

    /**
     * The write requests served since the first start (puts, multipart creations, parts), in the
     * order served, with the encryption and checksum headers each carried.
     */
    public List<S3Request> writeRequests() {
        return List.copyOf(writes);
    }

    /**
     * From now on every write (put, multipart creation, part) of a key under {@code keyPrefix}
     * answers 500 InternalError, as a broken or refusing bucket would, while every other request is
     * served; null to serve them all again. Kept across restarts.
     */
    public void failWritesUnder(String keyPrefix) {
        failingPrefix.set(keyPrefix);
    }

    /**
     * From now on every write (put, multipart creation, part, completion) of a key under
     * {@code keyPrefix} waits until the returned hold is released, as a bucket slow for those keys
     * only; every other request is served meanwhile. One hold at a time: a new one replaces it.
     */
    public WriteHold holdWritesUnder(String keyPrefix) {
        WriteHold next = new WriteHold(keyPrefix);
        WriteHold before = hold.getAndSet(next);
        if (before != null) {
            before.release();
        }
        return next;
    }

    /** The object requests served since {@code before} (an earlier {@link #requests()}), by operation; none is 0. */
    public Map<String, Long> requestsSince(Map<String, Long> before) {
        Map<String, Long> served = requests();
        before.forEach((operation, n) -> served.merge(operation, -n, Long::sum));
        served.values().removeIf(n -> n == 0);
        return served;
    }

    public synchronized boolean isRunning() {
        return proxy != null;
    }

    /** Takes the server down (clients get "connection refused") while keeping every stored byte. */
    public synchronized void stop() {
        if (proxy == null) {
            return;
        }
        S3Proxy stopping = proxy;
        proxy = null;
        try {
            stopping.stop();
        } catch (Exception e) {
            throw new IllegalStateException("The embedded S3 server on " + endpoint() + " did not stop cleanly.", e);
        }
    }

    /** Stops the server if it runs and serves the same folder again on the same port. */
    public synchronized void restart() {
        stop();
        serve();
    }

    @Override
    public synchronized void close() {
        stop();
    }

    private synchronized void serve() {
        if (proxy != null) {
            throw new IllegalStateException("The embedded S3 server on " + endpoint() + " is already running: stop it first.");
        }
        CountingBlobStore store = new CountingBlobStore(new FilesystemNio2BlobStore(existingDir().toString()), requests, writes,
                failingPrefix, hold, options.latencyMs());
        if (!store.containerExists(options.bucket())) {
            store.createContainer(options.bucket());
        }
        S3Proxy.Builder builder = S3Proxy.builder().blobStore(store);
        if (options.tls() == null) {
            builder.endpoint(endpoint());
        } else {
            builder.secureEndpoint(endpoint()).keyStore(options.tls().keyStore().toString(), options.tls().password());
        }
        S3Proxy started = builder
                .awsAuthentication(AuthenticationType.AWS_V4, options.accessKey(), options.secretKey())
                .jettyMaxThreads(JETTY_MAX_THREADS)
                .stopTimeout(STOP_TIMEOUT_MS)
                .build();
        try {
            started.start();
        } catch (Exception e) {
            stopQuietly(started);
            throw new IllegalStateException("The embedded S3 server could not listen on " + endpoint()
                    + " (is the port taken?): pass port 0 or a free port.", e);
        }
        proxy = started;
        port = options.tls() == null ? started.getPort() : started.getSecurePort();
    }

    /** Releases the threads of a server that failed to start; its own failure is the one to report. */
    private static void stopQuietly(S3Proxy failed) {
        try {
            failed.stop();
        } catch (Exception ignored) {
            // The start failure already explains what went wrong.
        }
    }

    private Path existingDir() {
        try {
            return Files.createDirectories(options.dir());
        } catch (IOException e) {
            throw new UncheckedIOException("The embedded S3 folder " + options.dir()
                    + " cannot be created: choose a writable folder.", e);
        }
    }

    /** Resolves a bucket or key below {@code parent}, refusing names that would climb out of it. */
    private static Path contained(Path parent, String name, String what) {
        Path resolved = parent.resolve(name).normalize();
        if (name.isEmpty() || !resolved.startsWith(parent) || resolved.equals(parent)) {
            throw new IllegalArgumentException("The " + what + " '" + name + "' does not name a path inside "
                    + parent + ": use a non-empty name without '..' segments.");
        }
        return resolved;
    }
}
