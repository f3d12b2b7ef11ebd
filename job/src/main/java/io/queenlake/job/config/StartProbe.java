package io.queenlake.job.config;

import io.queenlake.broker.client.ChangedPage;
import io.queenlake.broker.client.EndpointCheck;
import io.queenlake.broker.client.HttpQueenClient;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * Checks, before the job is submitted, that what the settings name is usable: the broker answers
 * {@code partitions/changed} with a safeTime, and the bucket takes a small object under
 * {@code <prefix>/_queen/probe/}, gives it back, lists it and deletes it, through Flink's
 * {@code FileSystem} as configured in this process. Each failure is a {@link ProbeException} whose
 * one line says what to check. It writes nothing else and deletes its object on success (S3A may
 * leave the probe folder's directory marker behind).
 */
public final class StartProbe {

    /** Each check gives up after this long, so a silent endpoint fails the start instead of hanging it. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);
    /** How long the broker and the S3 endpoint get to accept a connection and speak their scheme. */
    public static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

    private static final int MAX_CAUSE_CHARS = 300;
    /** The AWS SDK's "(Service: Amazon S3; Status Code: 403; Error Code: AccessDenied; Request ID: ...)". */
    private static final Pattern S3_CODES = Pattern.compile("Status Code: (\\d+); Error Code: ([^;)]+)");

    private StartProbe() {}

    /** Probes the broker, then the bucket. */
    public static void check(LakeSettings settings) {
        reachable("the broker at " + settings.queenUrl(), URI.create(settings.queenUrl()), Setting.QUEEN_URL,
                CONNECT_TIMEOUT);
        brokerSafeTime(settings, DEFAULT_TIMEOUT);
        if (!settings.localFolder() && settings.endpoint().uri().isPresent()) {
            reachable("the S3 endpoint " + settings.endpoint().text(), settings.endpoint().uri().get(), Setting.ENDPOINT,
                    CONNECT_TIMEOUT);
        }
        bucket(settings, DEFAULT_TIMEOUT);
    }

    /**
     * Fails in seconds, with one line naming {@code setting}, when {@code url} refuses a connection,
     * does not accept one within {@code timeout}, or speaks TLS where the URL says http (or the other
     * way round): the clients behind the probe would retry such a failure for up to a minute.
     */
    public static void reachable(String subject, URI url, Setting setting, Duration timeout) {
        EndpointCheck.problem(url, timeout).ifPresent(problem -> {
            throw new ProbeException(problem.sentence(subject, setting.envName() + " (--" + setting.argName() + ")"), null);
        });
    }

    /** The broker's safeTime (microseconds), or a {@link ProbeException} naming QUEEN_URL and QUEEN_TOKEN. */
    public static long brokerSafeTime(LakeSettings settings, Duration timeout) {
        try {
            HttpQueenClient client = HttpQueenClient.builder()
                    .baseUrl(settings.queenUrl())
                    .token(settings.queenToken())
                    .tenant(settings.tenant().equals(Setting.QUEEN_TENANT.defaultValue()) ? null : settings.tenant())
                    .connectTimeout(timeout.compareTo(Duration.ofSeconds(5)) < 0 ? timeout : Duration.ofSeconds(5))
                    .requestTimeout(timeout)
                    .build();
            ChangedPage page = client.partitionsChanged(List.of());
            if (page.safeTimeMicros() <= 0) {
                throw new IllegalStateException("its safeTime was " + page.safeTimeMicros());
            }
            return page.safeTimeMicros();
        } catch (RuntimeException e) {
            throw new ProbeException("the broker at " + settings.queenUrl()
                    + " did not answer partitions/changed with a safeTime (" + cause(e)
                    + "): check QUEEN_URL / QUEEN_TOKEN (a read-write token) and QUEEN_TENANT.", e);
        }
    }

    /** Writes, reads back, lists and deletes one small object under {@code <prefix>/_queen/probe/}. */
    public static void bucket(LakeSettings settings, Duration timeout) {
        String name = settings.instance().replaceAll("[^A-Za-z0-9._-]", "_") + "-" + UUID.randomUUID() + ".txt";
        Path probe = new Path(settings.lakePath() + "/_queen/probe/" + name);
        ExecutorService runner = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "queen-lake-bucket-probe");
            t.setDaemon(true);
            return t;
        });
        try {
            Future<?> done = runner.submit(() -> {
                writeReadListDelete(probe);
                return null;
            });
            done.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw bucketFailure(settings, "no answer within " + timeout.toSeconds() + " s", e);
        } catch (ExecutionException e) {
            throw bucketFailure(settings, cause(e.getCause()), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw bucketFailure(settings, "interrupted", e);
        } finally {
            runner.shutdownNow();
        }
    }

    private static void writeReadListDelete(Path probe) throws IOException {
        byte[] bytes = ("queen-lake start probe " + probe.getName() + "\n").getBytes(StandardCharsets.UTF_8);
        FileSystem fs = probe.getFileSystem();
        try (OutputStream out = fs.create(probe, FileSystem.WriteMode.NO_OVERWRITE)) {
            out.write(bytes);
        }
        ByteArrayOutputStream read = new ByteArrayOutputStream();
        try (InputStream in = fs.open(probe)) {
            in.transferTo(read);
        }
        if (!Arrays.equals(read.toByteArray(), bytes)) {
            throw new IOException("the probe object " + probe + " read back " + read.size() + " bytes instead of "
                    + bytes.length);
        }
        if (fs.listStatus(probe.getParent()) == null) {
            throw new IOException("listing " + probe.getParent() + " answered nothing");
        }
        if (!fs.delete(probe, false)) {
            throw new IOException("the probe object " + probe + " could not be deleted");
        }
    }

    private static ProbeException bucketFailure(LakeSettings settings, String cause, Throwable e) {
        String prefix = settings.prefix().value();
        String check = settings.localFolder()
                ? "check that QUEEN_S3_ENDPOINT names a writable folder holding the folder " + settings.bucket()
                : "check QUEEN_S3_ENDPOINT, QUEEN_S3_PATH_STYLE, QUEEN_S3_REGION, the credentials ("
                        + settings.credentials() + "), and that the bucket policy allows s3:PutObject, s3:GetObject,"
                        + " s3:ListBucket and s3:AbortMultipartUpload on " + prefix + "/*, and s3:DeleteObject on " + prefix
                        + "/_queen/probe/*";
        return new ProbeException("the bucket " + settings.lakeRoot() + " could not take, give back, list and delete"
                + " a probe object under " + prefix + "/_queen/probe/ (" + cause + "): " + check + ".", e);
    }

    /**
     * The failure in one short line: its own message, without stack or line breaks, cut after
     * {@value #MAX_CAUSE_CHARS} characters; the S3 status and error code, when it names them, are
     * kept whole (at the end when the cut would take them).
     */
    static String cause(Throwable e) {
        String text = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        if (e.getCause() != null && e.getCause().getMessage() != null && e.getMessage() != null
                && !e.getMessage().contains(e.getCause().getMessage())) {
            text = text + "; " + e.getCause().getMessage();
        }
        text = text.replaceAll("\\s+", " ").replace("com.amazonaws.services.s3.model.", "").strip();
        Matcher s3 = S3_CODES.matcher(text);
        String codes = s3.find() ? "Status Code: " + s3.group(1) + "; Error Code: " + s3.group(2).strip() : null;
        if (text.length() <= MAX_CAUSE_CHARS) {
            return text;
        }
        String cut = text.substring(0, MAX_CAUSE_CHARS) + "...";
        return codes == null || cut.contains(codes) ? cut : cut + " (" + codes + ")";
    }
}
