package io.queenlake.source.enumerator;

import io.queenlake.broker.client.BrokerOutage;
import io.queenlake.broker.client.HttpQueenClient;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.client.QueenException;
import io.queenlake.broker.kv.CommitPointers;
import io.queenlake.broker.kv.CompleteThrough;
import io.queenlake.broker.kv.LeaseKeeper;
import io.queenlake.broker.kv.LeaseStatus;
import io.queenlake.broker.kv.LeaseView;
import io.queenlake.broker.kv.SinkKeys;
import io.queenlake.format.manifest.LeaseDoc;
import io.queenlake.source.QueenSourceConfig;
import io.queenlake.source.enumerator.start.StartPlanLoader;
import io.queenlake.source.event.ListingRequest;
import io.queenlake.source.event.QueueProgress;
import io.queenlake.source.split.QueueSplit;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * QueenSource's enumerator: which queues this job mirrors (leases), which partitions they have
 * (discovery passes), where each new partition starts, which reader owns it, and after every
 * complete pass the safeTime and last offsets each reader judges its frontier against.
 *
 * <p>Threads: every broker call runs off the coordinator thread (a lease round every TTL/3 on a
 * thread of its own, {@link LeaseRounds}; a discovery run every discovery interval on Flink's
 * worker, {@code callAsync}; and one of each at once when a listing adds queues or a lease is won); the handlers, on the coordinator thread, only merge answers,
 * assign and send events. The next discovery run reads an immutable {@link DiscoveryInput} the
 * coordinator thread publishes.
 *
 * <p>A pass is complete for the readers only when it covered every queue this job holds and no
 * wanted queue waits for its lease verdict; only then do readers hear its safeTime, after the
 * pass's new splits were assigned (a split must be known to its reader before a safeTime that
 * covers its records).
 *
 * <p>This class keeps that order of events; the work of each step lives beside it: what a run asks
 * ({@link PassPlanner}), what its answer changes ({@link DiscoveryMerge}), the lake checks of
 * restored and refused queues ({@link StartChecks}), and what the readers are handed
 * ({@link ReaderDelivery}).
 */
@Internal
public final class QueenSplitEnumerator implements SplitEnumerator<QueueSplit, QueenEnumState> {

    private static final Logger LOG = LoggerFactory.getLogger(QueenSplitEnumerator.class);

    private final QueenSourceConfig config;
    private final SplitEnumeratorContext<QueueSplit> context;
    private final LeaseKeeper leases;
    private final LeaseRounds leaseRounds;
    private final CommitPointers pointers;
    private final DiscoveryRun discovery;
    private final StartPlanLoader plans;
    private final PartitionBook book = new PartitionBook();
    private final Assignments assignments = new Assignments();
    private final EnumeratorMetrics metrics;
    private final PassPlanner passes;
    private final DiscoveryMerge discoveryMerge;
    private final ReaderDelivery delivery;

    private final WantedQueues wanted;
    private final RefusedQueues refused = new RefusedQueues();
    private final StartChecks startChecks;
    /** The broker's outage as discovery meets it: created at the first failed pass. */
    private BrokerOutage brokerOutage;
    private volatile DiscoveryInput nextInput;
    /** A one-shot discovery run was asked for and has not answered yet: readers registering meanwhile share it. */
    private boolean discoveryAsked;

    public QueenSplitEnumerator(
            QueenSourceConfig config, SplitEnumeratorContext<QueueSplit> context, QueenEnumState state) {
        this(config, context, state, HttpQueenClient.builder()
                .baseUrl(config.brokerUrl())
                .token(config.token())
                .tenant(config.tenant())
                .requestTimeout(Duration.ofMillis(config.requestTimeoutMs()))
                .build(), LeaseRounds.ownThread(context, "queen-source-leases-" + config.sink()));
    }

    /** With a given broker client, the lease rounds on the context's worker: tests drive them by hand. */
    QueenSplitEnumerator(QueenSourceConfig config, SplitEnumeratorContext<QueueSplit> context,
            QueenEnumState state, QueenClient client) {
        this(config, context, state, client, LeaseRounds.onContext(context));
    }

    private QueenSplitEnumerator(QueenSourceConfig config, SplitEnumeratorContext<QueueSplit> context,
            QueenEnumState state, QueenClient client, LeaseRounds leaseRounds) {
        this.config = config;
        this.context = context;
        this.leaseRounds = leaseRounds;
        this.leases = new LeaseKeeper(client, new SinkKeys(config.sink()), config.instance(), config.leaseTtlMs());
        this.pointers = new CommitPointers(client, config.sink());
        this.plans = new StartPlanLoader(client, config.sink(), config.tenant(), config.lakeRoot());
        this.discovery = new DiscoveryRun(client, plans);
        this.metrics = new EnumeratorMetrics(context.metricGroup());
        this.wanted = new WantedQueues(config.queues(), config.allQueues(), config.keyBudget());
        this.startChecks = new StartChecks(plans, context, refused, book, wanted, this::updateMetrics);
        this.passes = new PassPlanner(config.allQueues(), state.passes(), state.lastSafeTimeMicros());
        this.discoveryMerge = new DiscoveryMerge(config.start(), wanted, book, refused, assignments, metrics,
                context::currentParallelism);
        this.delivery = new ReaderDelivery(context, book, assignments, refused);
        restore(state);
        this.nextInput = plan();
        updateMetrics();
    }

    private void restore(QueenEnumState state) {
        boolean rescaled = state.parallelism() != 0 && state.parallelism() != context.currentParallelism();
        book.restore(state.queues(), rescaled);
        for (QueueSplit split : state.pendingSplits()) {
            assignments.addNew(split, context.currentParallelism(), book.queuesByOwner());
        }
        if (rescaled) {
            LOG.info("restored with {} readers instead of {}: the passes of queues assigned before go to every reader",
                    context.currentParallelism(), state.parallelism());
        }
    }

    @Override
    public void start() {
        leases.want(wanted.names());
        LOG.info("QueenSource enumerator of instance {} (incarnation {}) starts: queues {}, sink {}, {} known partitions",
                leases.instance(), leases.incarnation(), config.allQueues() ? "*" : wanted.names(), config.sink(),
                book.partitionCount());
        List<String> restored = book.decidedQueues();
        if (!restored.isEmpty()) {
            // Restored splits are back with their readers already: no pass lists them until their lake is checked.
            startChecks.restored(restored);
        }
        leaseRounds.every(leases.refreshIntervalMs(), () -> LeaseRound.take(leases, pointers), this::onLeases);
        context.callAsync(() -> discovery.run(nextInput), this::onDiscovery, 0, config.discoveryIntervalMs());
    }

    // ---------------------------------------------------------------- leases

    private void onLeases(LeaseRound round, Throwable error) {
        if (error != null) {
            throw AsyncFailures.failure(error);
        }
        LeaseView view = round.view();
        long lastSafeTime = passes.lastSafeTimeMicros();
        round.pointers().forEach((queue, pointer) -> metrics.lag(queue,
                lastSafeTime == Long.MIN_VALUE ? OptionalLong.empty()
                        : CompleteThrough.lagMillis(lastSafeTime, pointer.pointer(), leases.progress(queue))));
        boolean won = wanted.onLeases(view);
        startChecks.recheckDue();
        nextInput = plan();
        updateMetrics();
        if (won) {
            // Discover a queue as soon as its lease is won, not one discovery interval later: at a job's
            // start the first periodic run went out before the first lease round's answer was merged, so
            // every start waited up to that interval for its first record. Flink runs the enumerator's
            // async calls on one worker thread (SourceOperatorFactory's numCoordinatorWorkerThread, 1),
            // so this run never overlaps the periodic one. A periodic run that went out with the input
            // before this one merges harmlessly: known partitions make no new split, decided starts are
            // not planned again, and a pass counts as complete only against the leases held now.
            discoverNow();
        }
    }

    /** One discovery run now, besides the periodic ones; asked again before it answers, it is the same run. */
    private void discoverNow() {
        if (!discoveryAsked) {
            discoveryAsked = true;
            context.callAsync(() -> discovery.run(nextInput), (outcome, error) -> {
                discoveryAsked = false;
                onDiscovery(outcome, error);
            });
        }
    }

    // ---------------------------------------------------------------- discovery

    private void onDiscovery(DiscoveryOutcome outcome, Throwable error) {
        if (error != null) {
            Throwable cause = AsyncFailures.unwrap(error);
            if (cause instanceof QueenException q && q.retriable()) {
                passFailed(q);
                return;
            }
            throw AsyncFailures.failure(cause);
        }
        outcome.listing().ifPresent(this::onListing);
        passes.ran(outcome.listing().isPresent());
        if (outcome.failure().isPresent()) {
            passFailed(outcome.failure().get());
            nextInput = plan();
            return;
        }
        if (outcome.safeTimeMicros() < passes.lastSafeTimeMicros()) {
            LOG.debug("dropping a discovery pass with safeTime {} below the last complete pass's {}",
                    outcome.safeTimeMicros(), passes.lastSafeTimeMicros());
            nextInput = plan();
            return;
        }
        if (brokerOutage != null) {
            brokerOutage.answered();
        }
        Set<String> covered = discoveryMerge.merge(outcome);
        passes.swept(outcome.input(), covered);
        // A refused queue holds back no pass: the other queues go on.
        covered.addAll(refused.names());
        delivery.deliverAll();
        if (wanted.allCovered(covered)) {
            passes.completed(outcome.safeTimeMicros());
            delivery.sendPass(outcome.safeTimeMicros());
            metrics.passCompleted(outcome.safeTimeMicros());
        }
        nextInput = plan();
        updateMetrics();
    }

    private void passFailed(QueenException failure) {
        metrics.passFailed();
        if (brokerOutage == null) {
            brokerOutage = new BrokerOutage("the source's discovery", config.brokerUrl());
        }
        brokerOutage.failed(failure); // one WARN per outage; the pass's retries at DEBUG
        LOG.debug("discovery pass failed, retrying in {} ms: {}", config.discoveryIntervalMs(), failure.getMessage());
    }

    private void onListing(List<String> listed) {
        boolean added = wanted.onListing(listed);
        leases.want(wanted.names());
        if (added) {
            // Ask for the new queues' leases now, not a lease interval (a third of the TTL) later; a
            // won lease then runs its discovery at once (onLeases).
            leaseRounds.once(() -> LeaseRound.take(leases, pointers), this::onLeases);
        }
    }

    /** The next run's queries, from the passes so far and the queues held now. */
    private DiscoveryInput plan() {
        return passes.next(wanted, book, refused);
    }

    private boolean mine(String queue) {
        return wanted.mine(queue);
    }

    /** A reader's checkpoint completed: the next lease refresh of each queue carries how far it closed it. */
    @Override
    public void handleSourceEvent(int subtaskId, SourceEvent event) {
        if (event instanceof QueueProgress reported) {
            reported.queues().forEach((queue, closed) -> {
                if (mine(queue)) {
                    leases.reportProgress(queue, new LeaseDoc.Progress(closed.k(), closed.closedThroughMicros()));
                }
            });
        } else if (event instanceof ListingRequest request) {
            LOG.warn("reader {} missed a pass update after update {}; it gets the whole listing with the next pass",
                    subtaskId, request.lastApplied());
            delivery.forgetListing(subtaskId);
        } else {
            LOG.warn("QueenSource enumerator ignores an unknown source event {} from reader {}", event, subtaskId);
        }
    }

    @Override
    public void handleSplitRequest(int subtaskId, String requesterHostname) {
        // Splits are pushed on discovery and registration; readers never ask.
    }

    @Override
    public void addSplitsBack(List<QueueSplit> splits, int subtaskId) {
        delivery.takeBack(splits, subtaskId);
        updateMetrics();
    }

    @Override
    public void addReader(int subtaskId) {
        // A reader registers once per attempt: a restarted one knows no listing.
        delivery.forgetListing(subtaskId);
        delivery.deliver(subtaskId);
        updateMetrics();
        if (book.holdsQueues(subtaskId)) {
            // Its reads start with a pass, and the passes so far went out before it registered (at a job's
            // start the first pass usually does): discover now, not one discovery interval later.
            discoverNow();
        }
    }

    // ---------------------------------------------------------------- state and life cycle

    @Override
    public QueenEnumState snapshotState(long checkpointId) {
        return new QueenEnumState(passes.completePasses(), passes.lastSafeTimeMicros(), context.currentParallelism(),
                book.snapshot(), assignments.pendingSplits());
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        // Nothing waits for a checkpoint: the book and the pending splits are in every snapshot.
    }

    /** Releases every lease and the presence row (a bounded blocking call; the job is stopping). */
    @Override
    public void close() {
        leaseRounds.close();
        plans.close();
        leases.releaseAll();
    }

    /** Every wanted queue's lease as last seen, for status lines and tests. */
    Map<String, LeaseStatus> queueStatus() {
        return wanted.statuses();
    }

    /** The safeTime of the last complete pass, {@link Long#MIN_VALUE} before any. */
    long lastSafeTimeMicros() {
        return passes.lastSafeTimeMicros();
    }

    long completePasses() {
        return passes.completePasses();
    }

    /** The queries of the next discovery run (tests check that passes after the first are incremental). */
    DiscoveryInput nextDiscoveryInput() {
        return nextInput;
    }

    int knownPartitions() {
        return book.partitionCount();
    }

    /** Tests check refused queues again sooner than {@link RefusedQueues#RECHECK_MS}. */
    void recheckRefusedAfter(long millis) {
        refused.recheckAfter(millis);
    }

    /** Why {@code queue} is refused, once its lake was checked; empty when it is not refused. */
    Optional<String> refusalOf(String queue) {
        return refused.sentence(queue);
    }

    /** Queues held but not read now (their lake is ahead of their pointer, or not checked yet). */
    Set<String> refusedQueues() {
        return refused.names();
    }

    private void updateMetrics() {
        metrics.refused(refused.size());
        metrics.update(wanted, book, assignments.pendingCount());
    }
}
