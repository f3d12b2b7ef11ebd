package io.queenlake.source;

import org.apache.flink.annotation.PublicEvolving;

/**
 * How a refusal that involves several options (a window size against its alignment) names each:
 * the connector names them by their Flink key ({@link #KEYS}); an application that reads them from
 * its own variables names them by those, so the rule is written once and worded by its caller.
 */
@PublicEvolving
@FunctionalInterface
public interface OptionNames {

    /** By Flink key: {@code queen.s3.max-window-ms}. */
    OptionNames KEYS = QueenOption::key;

    String of(QueenOption<?> option);
}
