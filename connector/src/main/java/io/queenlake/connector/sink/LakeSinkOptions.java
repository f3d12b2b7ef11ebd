package io.queenlake.connector.sink;

import io.queenlake.format.jsonl.Compression;
import io.queenlake.format.model.Layout;
import io.queenlake.format.object.Format;
import io.queenlake.format.parquet.ParquetCodec;
import io.queenlake.source.QueenOption;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOptions;

/**
 * The options the lake sink reads, each a Flink {@code ConfigOption} with its check
 * ({@link QueenOption}): {@link LakeSinkBuilder} checks against them and reads them from a Flink
 * configuration with {@link LakeSinkBuilder#configure}.
 */
@PublicEvolving
public final class LakeSinkOptions {

    public static final QueenOption<String> PREFIX = QueenOption.text(
            ConfigOptions.key("queen.s3.prefix").stringType().defaultValue("queen")
                    .withDescription("The key prefix every lake object starts with."),
            "segments without //, . or .., control characters, # ? or \\ (outer slashes are dropped)");

    public static final QueenOption<String> FORMAT = QueenOption.choice(
            ConfigOptions.key("queen.s3.format").stringType().defaultValue("jsonl")
                    .withDescription("The object format."),
            Format.spellings(), "jsonl (or json, ndjson) or parquet");

    public static final QueenOption<String> COMPRESSION = QueenOption.choice(
            ConfigOptions.key("queen.s3.compression").stringType().defaultValue("zstd")
                    .withDescription("JSONL object compression."),
            Compression.spellings(), "zstd (or zst), gzip (or gz), none (or off); JSONL only");

    public static final QueenOption<String> PARQUET_CODEC = QueenOption.choice(
            ConfigOptions.key("queen.s3.parquet-codec").stringType().defaultValue("zstd")
                    .withDescription("Parquet column codec."),
            ParquetCodec.spellings(), "zstd or snappy; Parquet only");

    public static final QueenOption<Layout> LAYOUT = QueenOption.choice(
            ConfigOptions.key("queen.s3.layout").enumType(Layout.class).defaultValue(Layout.MERGED)
                    .withDescription("One object per window, or one per partition and window."),
            layoutSpellings(), "merged or per-partition");

    /**
     * Queues whose windows commit at once. A window's commit mostly waits: a few S3 requests of
     * 20-50 ms and KV calls of about 5 ms, one after another; thousands of queues whose windows
     * close on one epoch-aligned grid arrive as one burst, so the default is sized for a real
     * bucket's latency, not for loopback. Per queue, windows still commit one at a time in {@code k}
     * order.
     */
    public static final QueenOption<Integer> COMMIT_CONCURRENCY = QueenOption.intRange(
            ConfigOptions.key("queen.s3.commit-concurrency").intType().defaultValue(64)
                    .withDescription("Queues whose windows are committed at once; each queue's windows still one at"
                            + " a time, in order."),
            1, 1_024);

    /**
     * KV write calls per second the job's commits make at most, all commit subtasks together:
     * Queen budgets about 100 KV writes a second per tenant over HTTP (answering 429 with
     * {@code Retry-After} above it), and the lease rounds and other sinks of the tenant need their
     * share. The lanes' intents and pointers wait for the next call and share it (up to 256
     * operations a call, each with its own {@code expect}), so a burst of thousands of windows
     * costs a few calls, not two per window.
     */
    public static final QueenOption<Integer> COMMIT_KV_WRITES_PER_SECOND = QueenOption.intRange(
            ConfigOptions.key("queen.s3.commit-kv-writes-per-second").intType().defaultValue(40)
                    .withDescription("KV write calls a second the commits make at most, all subtasks together;"
                            + " intents and pointers of many queues share each call."),
            1, 10_000);

    private LakeSinkOptions() {}

    /**
     * The codec option that applies to {@code format} ({@link #COMPRESSION} for JSONL,
     * {@link #PARQUET_CODEC} for Parquet); the other one is refused when set.
     */
    public static QueenOption<String> codecOf(Format format) {
        return format instanceof Format.Parquet ? PARQUET_CODEC : COMPRESSION;
    }

    /** The codec option that does not apply to {@code format}. */
    public static QueenOption<String> codecNotOf(Format format) {
        return format instanceof Format.Parquet ? COMPRESSION : PARQUET_CODEC;
    }

    private static Map<String, Layout> layoutSpellings() {
        Map<String, Layout> spellings = new LinkedHashMap<>();
        for (Layout layout : Layout.values()) {
            spellings.put(layout.wireName(), layout);
        }
        return spellings;
    }
}
