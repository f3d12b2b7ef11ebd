package io.queenlake.job.window;

import io.queenlake.source.SettingSpec;

/**
 * The option the window operator reads beside the source's ({@code QUEEN_S3_MAX_WINDOW_MS} is
 * {@link io.queenlake.source.QueenSourceOptions#MAX_WINDOW_MS}), defined once: {@link WindowSettings}
 * checks against it and the job's settings list includes it.
 */
public final class WindowOptions {

    public static final SettingSpec CHECKPOINT_EVERY = SettingSpec.number("QUEEN_S3_CHECKPOINT_EVERY")
            .defaultValue(20).range(1, 100_000)
            .description("Write a bucket checkpoint document every this many windows.")
            .build();

    private WindowOptions() {}
}
