package io.queenlake.connector.sink;

import org.apache.flink.api.common.operators.MailboxExecutor;
import org.apache.flink.util.function.ThrowingRunnable;

/** Runs mails at once: the writer only mails its crash hook, which the tests using this do not arm. */
public final class InlineMailbox implements MailboxExecutor {

    @Override
    public void execute(MailOptions options, ThrowingRunnable<? extends Exception> command, String description,
            Object... args) {
        try {
            command.run();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void yield() {}

    @Override
    public boolean tryYield() {
        return false;
    }

    @Override
    public boolean shouldInterrupt() {
        return false;
    }
}
