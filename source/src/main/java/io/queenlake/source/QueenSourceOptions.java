package io.queenlake.source;

import io.queenlake.broker.client.BrokerUrl;
import io.queenlake.broker.client.QueenNames;
import io.queenlake.format.manifest.ManifestJson;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.SecureRandom;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOptions;

/**
 * Every option {@link QueenSource} reads, as Kafka's connector keeps its {@code KafkaSourceOptions}:
 * each a Flink {@code ConfigOption} (key, type, default, description) with its check beside it
 * ({@link QueenOption}). {@link QueenSourceBuilder} takes its defaults from here, refuses what these
 * refuse naming the key, and reads them from a Flink configuration with
 * {@link QueenSourceBuilder#configure}. Defaults and ranges are the reference sink's.
 */
@PublicEvolving
public final class QueenSourceOptions {

    private static final SecureRandom RANDOM = new SecureRandom();

    public static final QueenOption<String> QUEUES = QueenOption.text(
            ConfigOptions.key("queen.s3.queues").stringType().noDefaultValue()
                    .withDescription("The queues to mirror."),
            QueueList::problemOf, "* for every queue of the tenant, a,b, or a JSON array [\"a\",\"b\"]").required();

    public static final QueenOption<StartMode> START = QueenOption.choice(
            ConfigOptions.key("queen.s3.start").enumType(StartMode.class).defaultValue(StartMode.LATEST)
                    .withDescription("Where a queue with no commit pointer starts."),
            startSpellings(), "latest (or now, end) or earliest (or beginning)");

    public static final QueenOption<Long> MAX_WINDOW_MS = QueenOption.longRange(
            ConfigOptions.key("queen.s3.max-window-ms").longType().defaultValue(300_000L)
                    .withDescription("The window size in ms; it must divide the hour (align=hour) or the day"
                            + " (align=day)."),
            100, 86_400_000);

    public static final QueenOption<String> SINK = QueenOption.text(
            ConfigOptions.key("queen.s3.sink").stringType().defaultValue("default")
                    .withDescription("The sink name in the KV keys s3:<sink>:<queue>:*."),
            QueenNames.SINK_NAME, QueenNames.SINK_NAME_RULE);

    public static final QueenOption<Long> SAFE_GUARD_MS = QueenOption.longRange(
            ConfigOptions.key("queen.s3.safe-guard-ms").longType().defaultValue(5_000L)
                    .withDescription("Subtracted from the broker's safeTime before it closes windows."),
            0, 3_600_000);

    public static final QueenOption<Long> DISCOVERY_INTERVAL_MS = QueenOption.longRange(
            ConfigOptions.key("queen.s3.discovery-interval-ms").longType().defaultValue(2_000L)
                    .withDescription("Cadence of partition discovery."),
            10, 3_600_000);

    public static final QueenOption<Integer> FETCH_CONCURRENCY = QueenOption.intRange(
            ConfigOptions.key("queen.s3.fetch-concurrency").intType().defaultValue(4)
                    .withDescription("Fetch calls in flight per reader."),
            1, 256);

    public static final QueenOption<Long> LEASE_TTL_MS = QueenOption.longRange(
            ConfigOptions.key("queen.s3.lease-ttl-ms").longType().defaultValue(30_000L)
                    .withDescription("Lease and presence TTL; refreshed every TTL/3."),
            1_000, 3_600_000);

    /** Unset gives {@link #defaultInstance()}, drawn when the source is built. */
    public static final QueenOption<String> INSTANCE = QueenOption.text(
            ConfigOptions.key("queen.s3.instance").stringType().noDefaultValue()
                    .withDescription("This job's name in leases; unset gives queen-lake@<host>/<id>, with an id drawn"
                            + " when the job is built (kept across its restarts, new for each submission)."),
            name -> name.length() <= 128 && name.chars().noneMatch(ch -> ch < 0x20 || ch == 0x7f),
            "is too long or has control characters", "1 to 128 printable characters");

    public static final QueenOption<String> QUEEN_URL = QueenOption.text(
            ConfigOptions.key("queen.url").stringType().defaultValue("http://localhost:6632")
                    .withDescription("The Queen broker (one node, not a balancer)."),
            QueenSourceOptions::brokerUrlProblem, "http(s)://host[:port] of one broker node");

    public static final QueenOption<String> QUEEN_TOKEN = QueenOption.text(
            ConfigOptions.key("queen.token").stringType().noDefaultValue()
                    .withDescription("Bearer token for the broker; never logged."),
            QueenNames::isBareToken, "contains spaces or control characters", "the bare token, with a read-write role")
            .secret();

    /** The tenant of a broker without tenancy, the default of {@link #QUEEN_TENANT}. */
    public static final String DEFAULT_TENANT = ManifestJson.DEFAULT_TENANT;

    public static final QueenOption<String> QUEEN_TENANT = QueenOption.text(
            ConfigOptions.key("queen.tenant").stringType().defaultValue(DEFAULT_TENANT)
                    .withDescription("The broker tenant whose queues are mirrored."),
            QueenNames.TENANT_ID, "a UUID");

    /** Not an option: the bounds and default of one broker request's timeout. */
    public static final long MIN_REQUEST_TIMEOUT_MS = 100;
    public static final long MAX_REQUEST_TIMEOUT_MS = 3_600_000;
    public static final long DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

    private QueenSourceOptions() {}

    /**
     * A new default instance name, {@code queen-lake@<host>/<8 lowercase hex digits>}, for a job whose
     * {@link #INSTANCE} is unset. Drawn once when the job's graph is built, it travels inside the
     * source in the job graph: every restart Flink makes of that graph (a task or global failover,
     * a JobManager failover that recovers the persisted graph) runs under the same name and so takes
     * back the leases its earlier incarnation left, while a second job (another submission, even of
     * the same jar with the same settings, on the same host or in the same session cluster) draws
     * another and waits for the first one's leases. The host alone named every job of a host alike;
     * Flink's job id is not known when the graph is built and the enumerator is not told it.
     */
    public static String defaultInstance() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = "unknown-host";
        }
        return "queen-lake@" + host + "/" + String.format("%08x", RANDOM.nextInt());
    }

    /** The canonical spelling first: it is the one the README and the start log show. */
    private static Map<String, StartMode> startSpellings() {
        Map<String, StartMode> spellings = new LinkedHashMap<>();
        spellings.put("latest", StartMode.LATEST);
        spellings.put("now", StartMode.LATEST);
        spellings.put("end", StartMode.LATEST);
        spellings.put("earliest", StartMode.EARLIEST);
        spellings.put("beginning", StartMode.EARLIEST);
        return spellings;
    }

    /** The client's own rule for a broker URL ({@link BrokerUrl}), as a problem. */
    private static String brokerUrlProblem(String url) {
        try {
            BrokerUrl.normalize(url);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }
}
