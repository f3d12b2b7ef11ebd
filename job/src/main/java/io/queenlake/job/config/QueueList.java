package io.queenlake.job.config;

import java.util.List;

/**
 * Reads {@code QUEEN_S3_QUEUES} as the source's option does ({@link io.queenlake.source.QueueList}:
 * {@code *}, {@code a,b} or a JSON array), refusing with the value's origin. The launcher's commands
 * that take a queue list read it here too.
 */
public final class QueueList {

    private QueueList() {}

    /** The queue names ({@code [*]} for every queue); a {@link SettingsException} names what is wrong. */
    public static List<String> parse(String raw, Origin origin) {
        return io.queenlake.source.QueueList.parse(raw, problem -> Setting.QUEUES.refusal(raw, origin, problem));
    }
}
