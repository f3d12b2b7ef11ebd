package io.queenlake.source;

import io.queenlake.broker.client.QueenNames;
import io.queenlake.format.manifest.ManifestJson;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.SecureRandom;
import org.apache.flink.annotation.PublicEvolving;

/**
 * Every option {@link QueenSource} reads, each defined once with its name, default, range and
 * description (as Kafka's connector keeps its {@code KafkaSourceOptions}): {@link QueenSourceBuilder}
 * takes its defaults from here and refuses what these refuse, and the job's settings list includes
 * each beside its own settings. Defaults and ranges are the reference sink's.
 */
@PublicEvolving
public final class QueenSourceOptions {

    private static final SecureRandom RANDOM = new SecureRandom();

    public static final SettingSpec QUEUES = SettingSpec.queues("QUEEN_S3_QUEUES").required()
            .allowed("* for every queue of the tenant, a,b, or a JSON array [\"a\",\"b\"]")
            .description("The queues to mirror.")
            .build();

    public static final SettingSpec START = SettingSpec.choice("QUEEN_S3_START").defaultValue("latest")
            .spellings("latest", "latest", "now", "latest", "end", "latest", "earliest", "earliest",
                    "beginning", "earliest")
            .allowed("latest (or now, end) or earliest (or beginning)")
            .description("Where a queue with no commit pointer starts.")
            .build();

    public static final SettingSpec MAX_WINDOW_MS = SettingSpec.number("QUEEN_S3_MAX_WINDOW_MS")
            .defaultValue(300_000).range(100, 86_400_000)
            .description("The window size in ms; it must divide the hour (align=hour) or the day (align=day).")
            .build();

    public static final SettingSpec SINK = SettingSpec.text("QUEEN_S3_SINK").defaultValue("default")
            .pattern(QueenNames.SINK_NAME).allowed(QueenNames.SINK_NAME_RULE)
            .description("The sink name in the KV keys s3:<sink>:<queue>:*.")
            .build();

    public static final SettingSpec SAFE_GUARD_MS = SettingSpec.number("QUEEN_S3_SAFE_GUARD_MS")
            .defaultValue(5_000).range(0, 3_600_000)
            .description("Subtracted from the broker's safeTime before it closes windows.")
            .build();

    public static final SettingSpec DISCOVERY_INTERVAL_MS = SettingSpec.number("QUEEN_S3_DISCOVERY_INTERVAL_MS")
            .defaultValue(2_000).range(10, 3_600_000)
            .description("Cadence of partition discovery.")
            .build();

    public static final SettingSpec FETCH_CONCURRENCY = SettingSpec.number("QUEEN_S3_FETCH_CONCURRENCY")
            .defaultValue(4).range(1, 256)
            .description("Fetch calls in flight per reader.")
            .build();

    public static final SettingSpec LEASE_TTL_MS = SettingSpec.number("QUEEN_S3_LEASE_TTL_MS")
            .defaultValue(30_000).range(1_000, 3_600_000)
            .description("Lease and presence TTL; refreshed every TTL/3.")
            .build();

    /** Unset gives {@link #defaultInstance()}, drawn when the source is built. */
    public static final SettingSpec INSTANCE = SettingSpec.text("QUEEN_S3_INSTANCE")
            .rule(name -> name.length() <= 128 && name.chars().noneMatch(ch -> ch < 0x20 || ch == 0x7f),
                    "is too long or has control characters")
            .allowed("1 to 128 printable characters")
            .description("This job's name in leases; unset gives queen-lake@<host>/<id>, with an id drawn when the job"
                    + " is built (kept across its restarts, new for each submission).")
            .build();

    public static final SettingSpec QUEEN_URL = SettingSpec.text("QUEEN_URL").defaultValue("http://localhost:6632")
            .allowed("http(s)://host[:port] of one broker node")
            .description("The Queen broker (one node, not a balancer).")
            .build();

    public static final SettingSpec QUEEN_TOKEN = SettingSpec.text("QUEEN_TOKEN").secret()
            .rule(QueenNames::isBareToken, "contains spaces or control characters")
            .allowed("the bare token, with a read-write role")
            .description("Bearer token for the broker; never logged.")
            .build();

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

    /** The tenant of a broker without tenancy, the default of {@link #QUEEN_TENANT}. */
    public static final String DEFAULT_TENANT = ManifestJson.DEFAULT_TENANT;

    public static final SettingSpec QUEEN_TENANT = SettingSpec.text("QUEEN_TENANT").defaultValue(DEFAULT_TENANT)
            .pattern(QueenNames.TENANT_ID).allowed("a UUID")
            .description("The broker tenant whose queues are mirrored.")
            .build();

    /** Not a setting: the bounds and default of one broker request's timeout. */
    public static final long MIN_REQUEST_TIMEOUT_MS = 100;
    public static final long MAX_REQUEST_TIMEOUT_MS = 3_600_000;
    public static final long DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

    private QueenSourceOptions() {}
}
