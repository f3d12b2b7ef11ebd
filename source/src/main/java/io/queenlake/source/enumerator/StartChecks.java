package io.queenlake.source.enumerator;

import io.queenlake.source.enumerator.start.StartPlan;
import io.queenlake.source.enumerator.start.StartPlanLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;

/**
 * The lake checks of queues that already have a split: restored with Flink state (parked until
 * their first verdict), or refused and due to be checked again. Undecided refused queues are not
 * checked here: their start plans ride on discovery. The checks run on the start plan loader's
 * pool, never on the worker thread the lease rounds use, whatever the bucket's latency; their
 * verdicts come back on the coordinator thread, the only one that calls this class.
 */
final class StartChecks {

    private final StartPlanLoader plans;
    private final SplitEnumeratorContext<?> context;
    private final RefusedQueues refused;
    private final PartitionBook book;
    private final WantedQueues wanted;
    /** Runs on the coordinator thread after each verdict was taken (the enumerator's metrics). */
    private final Runnable afterVerdict;
    private boolean checking;

    StartChecks(StartPlanLoader plans, SplitEnumeratorContext<?> context, RefusedQueues refused, PartitionBook book,
            WantedQueues wanted, Runnable afterVerdict) {
        this.plans = plans;
        this.context = context;
        this.refused = refused;
        this.book = book;
        this.wanted = wanted;
        this.afterVerdict = afterVerdict;
    }

    /** Parks the restored queues and checks their lake: no pass lists them until it was checked. */
    void restored(List<String> queues) {
        long now = System.currentTimeMillis();
        queues.forEach(queue -> refused.awaitCheck(queue, now));
        check(queues);
    }

    /** Refused queues that have a split and are due to be checked again (undecided ones ride on discovery). */
    void recheckDue() {
        if (checking) {
            return;
        }
        long now = System.currentTimeMillis();
        List<String> due = new ArrayList<>();
        for (String queue : refused.names()) {
            if (book.decided(queue) && wanted.mine(queue) && refused.due(queue, now)) {
                refused.checking(queue, now);
                due.add(queue);
            }
        }
        if (!due.isEmpty()) {
            check(due);
        }
    }

    /**
     * Checks the lake of queues that already have a split against their pointers, on the start
     * plan loader's pool.
     */
    private void check(List<String> queues) {
        checking = true;
        plans.refusals(queues).whenComplete((result, error) ->
                context.runInCoordinatorThread(() -> onChecked(queues, result, error)));
    }

    private void onChecked(List<String> queues, Map<String, Optional<StartPlan.Refusal>> result, Throwable error) {
        checking = false;
        long now = System.currentTimeMillis();
        for (String queue : queues) {
            if (error != null) {
                refused.refuse(queue, new StartPlan.Refusal("queue '" + queue + "' waits: its commit pointer and"
                        + " intent could not be read to check them against its manifests in the bucket ("
                        + AsyncFailures.unwrap(error) + "); it is checked again shortly", false), now);
                continue;
            }
            Optional<StartPlan.Refusal> refusal = result.getOrDefault(queue, Optional.empty());
            if (refusal.isPresent()) {
                refused.refuse(queue, refusal.get(), now);
            } else {
                refused.clear(queue);
            }
        }
        afterVerdict.run();
    }
}
