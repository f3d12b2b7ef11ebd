package io.queenlake.connector.sink;

import io.queenlake.broker.client.Outages;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import org.apache.flink.annotation.Internal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes a bucket outage visible in the log without a line per retry: the first failed bucket
 * request of a queue logs one WARN naming the endpoint, the bucket and the error; later failures
 * of that queue log nothing until a request of it succeeds, which logs one INFO line with how long
 * it lasted and how many attempts failed. The S3 file system's own logs (Hadoop, AWS SDK) are at
 * ERROR in the launcher's configuration and say nothing of a retried call.
 *
 * <p>A failure is not always what an outage shows first: S3A retries inside a call (AWS SDK
 * attempts within S3A retries, each bounded by the connection timeouts), so against a stopped or
 * silent bucket a call can run for minutes before any exception reaches its caller. Calls made
 * through {@link #run} or {@link #begin} are therefore watched while in flight: one that has not
 * returned after {@link #HANGING_AFTER} opens the queue's outage with the same one WARN, saying
 * what has been running for how long.
 *
 * <p>One tracker per endpoint, bucket and sink in a JVM, shared by the writer's staging and the
 * committer's retries, so a queue's outage is reported once whichever of them meets it first.
 * Thread-safe; the watchdog is one daemon thread for every tracker of the JVM, alive only while
 * calls are in flight.
 */
@Internal
public final class S3Outages {

    private static final Logger LOG = LoggerFactory.getLogger(S3Outages.class);
    private static final Map<String, S3Outages> TRACKERS = new ConcurrentHashMap<>();

    /**
     * A call still running after this long is reported as an outage. The promise is a WARN
     * within 15 s of the first failing request; the watchdog looks every {@link #CHECK_EVERY}, so 10 s
     * keeps within it with room for a slow check. A healthy request answers in well under a second;
     * a stage call uploads a whole window object (up to queen.s3.target-mb) and can take longer on a
     * slow link, in which case the WARN says so ("has not returned after 10 s") rather than claiming an error.
     */
    public static final Duration HANGING_AFTER = Duration.ofSeconds(10);

    /** How often the watchdog looks at the calls in flight. */
    static final Duration CHECK_EVERY = Duration.ofSeconds(1);

    private static final ScheduledThreadPoolExecutor WATCHDOG = watchdog();

    private final String endpoint;
    private final String bucket;
    private final LongSupplier nanoClock;
    private final long hangingAfterNanos;
    private final boolean scheduled;
    private final Outages outages;
    private final Set<Call> inFlight = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean checkPending = new AtomicBoolean();

    /** A bucket call to perform under the watchdog. */
    @FunctionalInterface
    public interface IoCall<T> {
        T call() throws IOException;
    }

    /**
     * One bucket call in flight: end it with {@link #succeeded()} or {@link #failed(Throwable)};
     * {@link #close()} ends it without a verdict (an interrupt, a bug) and is a no-op after either.
     */
    public final class Call implements AutoCloseable {
        private final String queue;
        private final String what;
        private final long startNanos;
        /** Reported by the watchdog (guarded by the tracker): counted once as a failed attempt. */
        private boolean reported;

        private Call(String queue, String what, long startNanos) {
            this.queue = queue;
            this.what = what;
            this.startNanos = startNanos;
        }

        /** The call answered: ends the queue's outage, if one was open. */
        public void succeeded() {
            if (inFlight.remove(this)) {
                S3Outages.this.succeeded(queue);
            }
        }

        /** The call failed and will be retried by its caller: reported once per outage. */
        public void failed(Throwable error) {
            if (inFlight.remove(this)) {
                failedCall(this, error);
            }
        }

        @Override
        public void close() {
            inFlight.remove(this);
        }
    }

    private S3Outages(String endpoint, String bucket) {
        this(endpoint, bucket, System::nanoTime, HANGING_AFTER, true);
    }

    /** For tests: a clock of their own and no scheduled checks ({@link #checkHanging} called by hand) when {@code scheduled} is false. */
    S3Outages(String endpoint, String bucket, LongSupplier nanoClock, Duration hangingAfter, boolean scheduled) {
        this.endpoint = endpoint;
        this.bucket = bucket;
        this.nanoClock = nanoClock;
        this.outages = new Outages(nanoClock);
        this.hangingAfterNanos = hangingAfter.toNanos();
        this.scheduled = scheduled;
    }

    /** The tracker of this sink's bucket. */
    public static S3Outages of(LakeSinkConfig config) {
        URI root = URI.create(config.root());
        String bucket = root.getAuthority() == null ? config.root() : root.getAuthority();
        String endpoint = config.endpoint();
        return TRACKERS.computeIfAbsent(endpoint + " " + bucket + " " + config.sinkName(),
                k -> new S3Outages(endpoint, bucket));
    }

    /**
     * Runs one bucket call of {@code queue} under the watchdog and reports its outcome: a success
     * ends the queue's outage, an {@link IOException} is reported as {@link #failed} (and rethrown,
     * for the caller to retry), a call that hangs past {@link #HANGING_AFTER} opens the outage while
     * it runs. {@code what} names the call in the WARN ("staging object k", "committing window 7").
     */
    public <T> T run(String queue, String what, IoCall<T> body) throws IOException {
        Call call = begin(queue, what);
        try {
            T result = body.call();
            call.succeeded();
            return result;
        } catch (IOException e) {
            call.failed(e);
            throw e;
        } finally {
            call.close();
        }
    }

    /** Starts watching one bucket call of {@code queue}; end it with the returned call's methods. */
    public Call begin(String queue, String what) {
        Call call = new Call(queue, what, nanoClock.getAsLong());
        inFlight.add(call);
        if (scheduled) {
            scheduleCheck();
        }
        return call;
    }

    /** A bucket request for {@code queue} failed and will be retried. */
    public synchronized void failed(String queue, String what, Throwable error) {
        if (outages.failed(queue) > 1) {
            return;
        }
        LOG.warn("S3 unavailable for queue '{}': endpoint {} bucket {}: {} failed: {}; retrying, one line when it"
                + " recovers", queue, endpoint, bucket, what, error.toString());
    }

    private synchronized void failedCall(Call call, Throwable error) {
        if (call.reported) {
            return; // counted (and reported, if it opened the outage) when it was found hanging
        }
        failed(call.queue, call.what, error);
    }

    /** A bucket request for {@code queue} succeeded: ends its outage, if one was open. */
    public synchronized void succeeded(String queue) {
        outages.answered(queue).ifPresent(ended -> LOG.info(
                "S3 available again for queue '{}': endpoint {} bucket {}, after {} s and {} failed attempts", queue,
                endpoint, bucket, ended.seconds(), ended.failures()));
    }

    /**
     * Reports every call in flight longer than the threshold and not reported yet: the first of a
     * queue without an open outage opens one with its WARN; the others count as failed attempts.
     */
    synchronized void checkHanging() {
        long now = nanoClock.getAsLong();
        for (Call call : inFlight) {
            long running = now - call.startNanos;
            if (call.reported || running < hangingAfterNanos || !inFlight.contains(call)) {
                continue;
            }
            call.reported = true;
            if (outages.failed(call.queue, call.startNanos) > 1) {
                continue;
            }
            LOG.warn("S3 unavailable for queue '{}': endpoint {} bucket {}: {} has not returned after {} s (the S3 file"
                    + " system retries inside the call); retrying, one line when it recovers", call.queue, endpoint,
                    bucket, call.what, running / 1_000_000_000L);
        }
    }

    /** Calls in flight now: for tests. */
    int inFlight() {
        return inFlight.size();
    }

    private void scheduleCheck() {
        if (checkPending.compareAndSet(false, true)) {
            WATCHDOG.schedule(this::tick, CHECK_EVERY.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** One watchdog round; the next is scheduled only while calls are in flight. */
    private void tick() {
        try {
            checkHanging();
        } catch (RuntimeException e) {
            LOG.debug("S3 outage check failed", e);
        }
        checkPending.set(false);
        if (!inFlight.isEmpty()) {
            scheduleCheck();
        }
    }

    private static ScheduledThreadPoolExecutor watchdog() {
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "s3-outages-watchdog");
            t.setDaemon(true);
            return t;
        });
        // The thread ends when no call has been in flight for a while, so a finished job leaves none behind.
        executor.setKeepAliveTime(10, TimeUnit.SECONDS);
        executor.allowCoreThreadTimeOut(true);
        executor.setRemoveOnCancelPolicy(true);
        return executor;
    }
}
