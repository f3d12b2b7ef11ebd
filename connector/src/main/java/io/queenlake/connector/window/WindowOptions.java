package io.queenlake.connector.window;

import io.queenlake.source.SettingSpec;
import org.apache.flink.annotation.PublicEvolving;

/**
 * The options the window operator reads beside the source's ({@code QUEEN_S3_MAX_WINDOW_MS} is
 * {@link io.queenlake.source.QueenSourceOptions#MAX_WINDOW_MS}), defined once: {@link WindowSettings}
 * checks against it and the job's settings list includes it.
 */
@PublicEvolving
public final class WindowOptions {

    public static final SettingSpec CHECKPOINT_EVERY = SettingSpec.number("QUEEN_S3_CHECKPOINT_EVERY")
            .defaultValue(20).range(1, 100_000)
            .description("Write a bucket checkpoint document every this many windows.")
            .build();

    /**
     * The reference sink's node-wide bound on open windows: the open windows of one task manager
     * (one JVM, every operator instance in it) hold at most this many MiB, else the largest queue
     * closes its open window early at its frontier and the readers pause partitions ahead of it.
     */
    public static final SettingSpec MEMORY_MB = SettingSpec.number("QUEEN_S3_MEMORY_MB")
            .defaultValue(512).range(1, 1_048_576)
            .description("MiB the open windows of one task manager may hold before the largest queue's closes early.")
            .build();

    private WindowOptions() {}
}
