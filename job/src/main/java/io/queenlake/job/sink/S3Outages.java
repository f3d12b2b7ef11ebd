package io.queenlake.job.sink;

import java.net.URI;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes a bucket outage visible in the log without a line per retry: the first failed bucket
 * request of a queue logs one WARN naming the endpoint, the bucket and the error; later failures
 * of that queue log nothing until a request of it succeeds, which logs one INFO line with how long
 * it lasted and how many attempts failed. The S3 file system's own logs (Hadoop, AWS SDK) are at
 * ERROR in the launcher's configuration and say nothing of a retried call.
 *
 * <p>One tracker per endpoint, bucket and sink in a JVM, shared by the writer's staging and the
 * committer's retries, so a queue's outage is reported once whichever of them meets it first.
 * Thread-safe.
 */
public final class S3Outages {

    private static final Logger LOG = LoggerFactory.getLogger(S3Outages.class);
    private static final Map<String, S3Outages> TRACKERS = new ConcurrentHashMap<>();

    private final String endpoint;
    private final String bucket;
    private final Map<String, Outage> open = new ConcurrentHashMap<>();

    /** A queue's outage since its first failed request. */
    private static final class Outage {
        final long sinceNanos = System.nanoTime();
        long failures = 1;
    }

    private S3Outages(String endpoint, String bucket) {
        this.endpoint = endpoint;
        this.bucket = bucket;
    }

    /** The tracker of this sink's bucket. */
    public static S3Outages of(LakeSinkConfig config) {
        URI root = URI.create(config.root());
        String bucket = root.getAuthority() == null ? config.root() : root.getAuthority();
        String endpoint = config.endpoint();
        return TRACKERS.computeIfAbsent(endpoint + " " + bucket + " " + config.sinkName(),
                k -> new S3Outages(endpoint, bucket));
    }

    /** A bucket request for {@code queue} failed and will be retried. */
    public void failed(String queue, String what, Throwable error) {
        boolean[] first = {false};
        open.compute(queue, (q, outage) -> {
            if (outage == null) {
                first[0] = true;
                return new Outage();
            }
            outage.failures++;
            return outage;
        });
        if (first[0]) {
            LOG.warn("S3 unavailable for queue '{}': endpoint {} bucket {}: {} failed: {}; retrying, one line when it"
                    + " recovers", queue, endpoint, bucket, what, error.toString());
        }
    }

    /** A bucket request for {@code queue} succeeded: ends its outage, if one was open. */
    public void succeeded(String queue) {
        Outage ended = open.remove(queue);
        if (ended != null) {
            long seconds = (System.nanoTime() - ended.sinceNanos) / 1_000_000_000L;
            LOG.info("S3 available again for queue '{}': endpoint {} bucket {}, after {} s and {} failed attempts",
                    queue, endpoint, bucket, seconds, ended.failures);
        }
    }
}
