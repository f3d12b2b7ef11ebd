package io.queenlake.job.config;

import io.queenlake.format.key.KeyBudget;

/**
 * Refuses, before the job is submitted, a named queue whose lake keys cannot fit in S3's 1,024
 * bytes ({@link KeyBudget}): S3 would refuse every upload of it, and its staging would hold back
 * every queue's commits. Under {@code QUEEN_S3_QUEUES=*} the queues are not known yet: discovery
 * skips such a queue with a warning instead (the source's {@code WantedQueues}).
 */
final class QueueKeyCheck {

    private QueueKeyCheck() {}

    /** The settings as they are, or a {@link SettingsException} naming the first queue that does not fit. */
    static LakeSettings check(LakeSettings settings) {
        KeyBudget budget = budgetOf(settings);
        for (String queue : settings.queues()) {
            if (!queue.equals("*")) {
                budget.refusal(queue).ifPresent(reason -> {
                    throw new SettingsException(Setting.QUEUES.envName() + ": " + reason + ".");
                });
            }
        }
        return settings;
    }

    /** The key budget of these settings' lake: prefix, tenant, layout and the format's extension. */
    static KeyBudget budgetOf(LakeSettings settings) {
        return KeyBudget.of(settings.prefix(), settings.tenant(), settings.writer().layout(),
                settings.writer().format().extension());
    }
}
