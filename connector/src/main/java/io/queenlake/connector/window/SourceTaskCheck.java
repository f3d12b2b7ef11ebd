package io.queenlake.connector.window;

import org.apache.flink.streaming.runtime.tasks.MultipleInputStreamTask;
import org.apache.flink.streaming.runtime.tasks.OneInputStreamTask;
import org.apache.flink.streaming.runtime.tasks.SourceOperatorStreamTask;
import org.apache.flink.streaming.runtime.tasks.StreamTask;
import org.apache.flink.streaming.runtime.tasks.TwoInputStreamTask;

/**
 * Refuses, when the windows open, to run in a task whose input comes over the network: the open
 * windows live in memory and the source's reader of the same task checkpoints the read positions
 * they describe ({@code OpenWindows}), so windows behind an exchange would checkpoint nothing a
 * restore could read again. {@code LakePipeline} refuses such a graph when it builds it; this
 * catches a graph wired by hand, whatever built it. (An operator harness, no real task, passes.)
 */
final class SourceTaskCheck {

    private SourceTaskCheck() {}

    static void verify(StreamTask<?, ?> task, String operator) {
        if (task instanceof SourceOperatorStreamTask<?>) {
            return;
        }
        if (task instanceof OneInputStreamTask<?, ?> || task instanceof TwoInputStreamTask<?, ?, ?>
                || task instanceof MultipleInputStreamTask<?>) {
            throw new IllegalStateException("the lake's windows ('" + operator + "') run in task '"
                    + task.getName() + "', which reads its input over the network, not in the Queen source's"
                    + " task: they must run chained to the source (same parallelism, forward, no keyBy or"
                    + " rebalance between, pipeline.operator-chaining true), since the source checkpoints only"
                    + " where to read again; wire them with LakePipeline.attach");
        }
    }
}
