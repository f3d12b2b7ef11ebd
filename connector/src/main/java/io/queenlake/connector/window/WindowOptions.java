package io.queenlake.connector.window;

import io.queenlake.format.model.Align;
import io.queenlake.source.QueenOption;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOptions;

/**
 * The options the window operator reads beside the source's (the window size is
 * {@link io.queenlake.source.QueenSourceOptions#MAX_WINDOW_MS}), each a Flink {@code ConfigOption}
 * with its check ({@link QueenOption}): {@link WindowSettings} and {@link WindowRules} check against
 * them.
 */
@PublicEvolving
public final class WindowOptions {

    public static final QueenOption<Align> ALIGN = QueenOption.choice(
            ConfigOptions.key("queen.s3.align").enumType(Align.class).defaultValue(Align.HOUR)
                    .withDescription("The boundary no window crosses."),
            alignSpellings(), "hour, day or none");

    public static final QueenOption<Integer> TARGET_MB = QueenOption.intRange(
            ConfigOptions.key("queen.s3.target-mb").intType().defaultValue(128)
                    .withDescription("Uncompressed weight (MiB) at which a window is cut."),
            1, 5_120);

    public static final QueenOption<Integer> CHECKPOINT_EVERY = QueenOption.intRange(
            ConfigOptions.key("queen.s3.checkpoint-every").intType().defaultValue(20)
                    .withDescription("Write a bucket checkpoint document every this many windows."),
            1, 100_000);

    /**
     * The reference sink's node-wide bound on open windows: the open windows of one task manager
     * (one JVM, every operator instance in it) hold at most this many MiB, else the largest queue
     * closes its open window early at its frontier and the readers pause partitions ahead of it.
     */
    public static final QueenOption<Integer> MEMORY_MB = QueenOption.intRange(
            ConfigOptions.key("queen.s3.memory-mb").intType().defaultValue(512)
                    .withDescription("MiB the open windows of one task manager may hold before the largest queue's"
                            + " closes early."),
            1, 1_048_576);

    private WindowOptions() {}

    private static Map<String, Align> alignSpellings() {
        Map<String, Align> spellings = new LinkedHashMap<>();
        for (Align align : Align.values()) {
            spellings.put(align.wireName(), align);
        }
        return spellings;
    }
}
