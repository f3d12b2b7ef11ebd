package io.queenlake.connector.sink;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.annotation.Internal;

/**
 * The S3A settings that bound how long one call of the {@code s3://} file system (flink-s3-fs-hadoop
 * 2.3.0, which bundles Hadoop 3.3.4 and AWS SDK v1) keeps retrying before its caller hears of a
 * failure. With Hadoop's defaults (20 SDK attempts inside each of 8 S3A tries, a 200 s socket
 * timeout) a call against a stopped bucket was still retrying after 16 minutes. The same entries
 * are in flink-conf/config.yaml and k8s-operator/flinkdeployment.yaml (DeploymentFilesTest checks
 * them), and {@code ./queen-lake run} sets them unless its configuration chooses otherwise.
 *
 * <p>Bounded, a call against a bucket that refuses connections fails within about 20 s, and the
 * job's own retries (the writer's staging, the committer) take over with their one WARN per outage;
 * against a bucket that accepts and never answers each SDK attempt still waits for the socket
 * timeout, which is why {@link S3Outages} also reports a call that has not returned after 10 s.
 * Values are as Hadoop 3.3.4 parses them: plain milliseconds for the timeouts, durations for the
 * retry intervals.
 */
@Internal
public final class S3CallBounds {

    private S3CallBounds() {}

    /** Flink {@code s3.*} key (the plugin passes it on as {@code fs.s3a.*}) to value, in documentation order. */
    public static final Map<String, String> SETTINGS = settings();

    private static Map<String, String> settings() {
        Map<String, String> s = new LinkedHashMap<>();
        // TCP connect of one attempt (ms): a black-holed endpoint costs this per attempt. Hadoop's default.
        s.put("s3.connection.establish.timeout", "5000");
        // Socket read timeout (ms): the longest silence within one request. Not the whole request: a
        // part upload streams its body and S3 answers once it has it, so 60 s is ample for a 64 MiB part
        // on a slow link, and a server that accepts and never answers costs one minute per attempt, not 200 s.
        s.put("s3.connection.timeout", "60000");
        // AWS SDK retries inside each S3A try (default 20): 3 retries, a few seconds of SDK back-off.
        s.put("s3.attempts.maximum", "3");
        // S3A retries of a failed call (default 7) ...
        s.put("s3.retry.limit", "3");
        // ... pausing interval x 2^(n+1), randomised +/-50%: 1 s, 2 s, 4 s, about 7 s in all (7 retries: about 2 min).
        s.put("s3.retry.interval", "500ms");
        // S3A retries of a throttled call (503 Slow Down; default 20, which doubles its pause twenty times) ...
        s.put("s3.retry.throttle.limit", "5");
        // ... from this interval, the same doubling: about 30 s of pauses before the job's own retries take over.
        s.put("s3.retry.throttle.interval", "500ms");
        // Connections to the bucket (default 96): every subtask stages and commits up to
        // queen.s3.commit-concurrency windows at once, and a call waiting for a connection waits
        // like a slow bucket (1,500 queues at parallelism 2 held commits over 10 s at 96).
        s.put("s3.connection.maximum", "512");
        // S3A's upload threads (default 10, 32 tasks queued): every object PUT (each manifest) and
        // part upload passes through them, so they bound the commits at once as well.
        s.put("s3.threads.max", "128");
        s.put("s3.max.total.tasks", "256");
        return java.util.Collections.unmodifiableMap(s);
    }
}
