package io.queenlake.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.broker.client.ChangedEntry;
import io.queenlake.broker.client.ChangedPage;
import io.queenlake.broker.client.ChangedQuery;
import io.queenlake.broker.client.PushItem;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.client.RawJson;
import io.queenlake.source.event.PassCompleted;
import io.queenlake.source.event.PassUpdate;
import io.queenlake.source.split.PartitionSplit;
import io.queenlake.source.testutils.ForwardingQueenClient;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** 10,000 partitions: discovery pages, every partition is assigned, and later passes ask only what changed. */
class TenThousandPartitionsTest {

    private static final int PARTITIONS = 10_000;

    @Test
    void tenThousandPartitionsArePagedAssignedAndNotAskedAgainWhileIdle() throws Throwable {
        try (EnumeratorRig rig = new EnumeratorRig()) {
            List<PushItem> items = new ArrayList<>();
            for (int p = 0; p < PARTITIONS; p++) {
                items.add(new PushItem("orders", "p-" + p, Optional.empty(), RawJson.of("{}")));
                if (items.size() == 2_000) {
                    rig.client.push(items);
                    items.clear();
                }
            }
            rig.advance(10_000_000L); // the next writes (leases) are stamped 10 s after the pushes
            CountingClient counting = new CountingClient(rig.client);
            RecordingContext context = rig.context(4);
            context.register(0, 1, 2, 3);
            QueenSplitEnumerator enumerator = rig.start(rig.config(b -> b.leaseTtlMs(60_000)), context, QueenEnumState.empty(), counting);
            for (int r = 0; r < 4; r++) {
                enumerator.addReader(r);
            }
            context.leaseRound();

            context.discoveryRun();

            assertThat(counting.changedCalls.get()).as("a full pass of 10,000 partitions pages by 1,000").isGreaterThanOrEqualTo(10);
            assertThat(counting.rowsReturned.get()).isEqualTo(PARTITIONS);
            Set<String> assigned = new HashSet<>();
            assertThat(context.allSplits()).as("one queue, one split").hasSize(1);
            for (PartitionSplit split : context.allPartitions()) {
                assertThat(assigned.add(split.partition())).as("assigned once: " + split.partition()).isTrue();
            }
            assertThat(assigned).hasSize(PARTITIONS);
            int reported = 0;
            for (int r = 0; r < 4; r++) {
                reported += context.eventsOf(r, PassCompleted.class).get(0).queues().values().stream().mapToInt(List::size).sum();
            }
            assertThat(reported).isEqualTo(PARTITIONS);

            counting.reset();
            for (int run = 0; run < 5; run++) {
                context.leaseRound(); // moves the idle broker's safeTime
                context.discoveryRun();
            }
            assertThat(counting.rowsReturned.get()).as("idle partitions are not listed again").isZero();
            assertThat(counting.changedCalls.get()).as("one page per incremental pass").isEqualTo(5);
            assertThat(enumerator.knownPartitions()).isEqualTo(PARTITIONS);
            assertThat(context.allSplits()).hasSize(1);

            rig.push("orders", "p-17", 1);
            rig.push("orders", "p-new", 1);
            counting.reset();
            context.discoveryRun();
            assertThat(counting.rowsReturned.get()).as("only what was written since the last pass").isEqualTo(2);
            assertThat(context.allSplits()).as("a new partition is no new split").hasSize(1);
            int owner = context.sequence().stream().filter(d -> d.split() != null).findFirst().orElseThrow().reader();
            assertThat(context.lastPass(owner).queues().get("orders")).hasSize(PARTITIONS + 1);
            List<PassUpdate> updates = context.updatesTo(owner);
            assertThat(updates.get(updates.size() - 1).rows()).as("the pass sends the two rows that changed, not 10,001")
                    .isEqualTo(2);
        }
    }

    /** The real client, counting discovery calls and the rows they return. */
    private static final class CountingClient extends ForwardingQueenClient {
        final AtomicInteger changedCalls = new AtomicInteger();
        final AtomicInteger rowsReturned = new AtomicInteger();

        CountingClient(QueenClient real) {
            super(real);
        }

        void reset() {
            changedCalls.set(0);
            rowsReturned.set(0);
        }

        @Override
        public ChangedPage partitionsChanged(List<ChangedQuery> queries) {
            ChangedPage page = super.partitionsChanged(queries);
            changedCalls.incrementAndGet();
            for (ChangedEntry entry : page.entries()) {
                rowsReturned.addAndGet(entry.partitions().size());
            }
            return page;
        }
    }
}
