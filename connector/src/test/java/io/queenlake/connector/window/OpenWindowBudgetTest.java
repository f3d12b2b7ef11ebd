package io.queenlake.connector.window;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The task manager's budget: one total per JVM, each operator's share exact to itself and published in batches. */
class OpenWindowBudgetTest {

    @Test
    void anOperatorsOwnShareIsExactAndOthersSeeItInBatches() {
        long base = OpenWindowBudget.published();
        long limit = base + OpenWindowBudget.PUBLISH_BATCH * 3;
        OpenWindowBudget.Account one = OpenWindowBudget.account(limit);
        OpenWindowBudget.Account two = OpenWindowBudget.account(limit);
        try {
            one.add(OpenWindowBudget.PUBLISH_BATCH - 1);
            assertThat(OpenWindowBudget.published()).as("below one batch: local").isEqualTo(base);
            one.add(1);
            assertThat(OpenWindowBudget.published()).isEqualTo(base + OpenWindowBudget.PUBLISH_BATCH);
            two.add(OpenWindowBudget.PUBLISH_BATCH * 2);
            assertThat(one.overBudget()).isFalse();
            one.add(1);
            assertThat(one.overBudget()).as("its own unpublished byte counts").isTrue();
            assertThat(two.overBudget()).as("the other's unpublished byte does not, yet").isFalse();
            one.add(-OpenWindowBudget.PUBLISH_BATCH - 1);
            assertThat(one.held()).isZero();
            assertThat(OpenWindowBudget.published()).isEqualTo(base + 2 * OpenWindowBudget.PUBLISH_BATCH);
        } finally {
            one.close();
            two.close();
        }
        assertThat(OpenWindowBudget.published()).as("closing gives every share back").isEqualTo(base);
    }
}
