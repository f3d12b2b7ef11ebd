package io.queenlake.connector.testutils;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.broker.kv.ObservedPointer;
import io.queenlake.format.key.Prefix;
import io.queenlake.format.manifest.Committed;
import java.io.IOException;

/** AssertJ front of {@link LakeChecker} for tests. */
public final class LakeAssertions {

    private LakeAssertions() {}

    /** Every queue of {@code world} is committed through its last window and exactly once in the lake. */
    public static void assertLakeHoldsEveryWindowOnce(LakeFiles files, Prefix prefix, TestWindows world,
            java.util.function.Function<String, ObservedPointer> pointers) throws IOException {
        LakeChecker checker = new LakeChecker(files, prefix);
        for (String queue : world.queues()) {
            ObservedPointer pointer = pointers.apply(queue);
            assertThat(pointer.pointer()).as("the commit pointer of queue '%s'", queue).isPresent();
            Committed committed = pointer.pointer().get();
            assertThat(committed.k()).as("committed k of queue '%s'", queue).isEqualTo(world.windowsPerQueue());
            LakeReport report = checker.check(world.tenant(), queue, committed.k(), world.expectedRecords(queue));
            assertThat(report.problems()).as("%s", report).isEmpty();
            assertThat(report.recordsRead()).isEqualTo(world.expectedRecords(queue).size());
        }
    }
}
