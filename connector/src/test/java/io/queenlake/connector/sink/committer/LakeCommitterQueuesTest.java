package io.queenlake.connector.sink.committer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queenlake.broker.client.HttpQueenClient;
import io.queenlake.broker.client.KvAnswer;
import io.queenlake.broker.client.KvOp;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.kv.CommitPointers;
import io.queenlake.broker.kv.Intents;
import io.queenlake.devstack.broker.DevBroker;
import io.queenlake.devstack.broker.DevBrokerOptions;
import io.queenlake.format.key.Prefix;
import io.queenlake.format.manifest.Committed;
import io.queenlake.format.manifest.Intent;
import io.queenlake.connector.metrics.LakeMetrics;
import io.queenlake.connector.sink.InlineMailbox;
import io.queenlake.connector.sink.LakeSink;
import io.queenlake.connector.sink.LakeSinkConfig;
import io.queenlake.connector.sink.committable.WindowCommittable;
import io.queenlake.connector.sink.writer.LakeWriter;
import io.queenlake.connector.testutils.FlinkLakeFiles;
import io.queenlake.connector.testutils.LakeAssertions;
import io.queenlake.connector.testutils.TestWindows;
import io.queenlake.source.testutils.ForwardingQueenClient;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.connector.sink2.Committer.CommitRequest;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two queues of one commit call are committed at the same time, and each one still strictly in
 * {@code k} order and one window at a time (intent {@code k}, pointer {@code k}, then intent
 * {@code k + 1}), against the dev broker and a {@code file://} lake; a broker that refuses the
 * token fails the call for good.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LakeCommitterQueuesTest {

    @TempDir
    Path dir;

    @Test
    void twoQueuesCommitConcurrentlyYetEachInKOrder() throws Exception {
        TestWindows world = new TestWindows(List.of("alpha", "beta"), 3, 4);
        String root = dir.toUri().toString() + "lake";
        try (DevBroker broker = DevBroker.start(DevBrokerOptions.builder().build())) {
            LakeSinkConfig config = LakeSink.builder().root(root).brokerUrl(broker.url().toString()).build().config();
            List<WindowCommittable> committables = stagedWindows(config, world);
            CommitPointers store = new CommitPointers(client(broker), "default");
            CountDownLatch betaStarted = new CountDownLatch(1);
            List<String> moves = Collections.synchronizedList(new ArrayList<>());
            QueenClient observing = new ForwardingQueenClient(client(broker)) {
                @Override
                public KvAnswer kv(List<KvOp> ops) {
                    boolean alphasFirstPointer = false;
                    for (KvOp op : ops) {
                        if (op instanceof KvOp.Put put && put.key().equals(intentKey("beta"))) {
                            betaStarted.countDown();
                        }
                        alphasFirstPointer |= op instanceof KvOp.Put put && put.key().equals(store.committedKey("alpha"))
                                && Committed.fromJson(put.value().utf8()).k() == 1;
                    }
                    if (alphasFirstPointer) {
                        // Alpha's first pointer waits a while for beta's run to start. The KV writes of all
                        // queues share one call at a time, so beta's intent may be queued behind this very
                        // call: the wait is bounded, and the order of the moves below tells the story.
                        awaitAtMost(betaStarted, 5);
                    }
                    for (KvOp op : ops) {
                        if (op instanceof KvOp.Put put) {
                            moves.add(put.key() + "=" + (put.key().endsWith(":intent")
                                    ? Intent.fromJson(put.value().utf8()).k()
                                    : Committed.fromJson(put.value().utf8()).k()));
                        }
                    }
                    return super.kv(ops);
                }
            };
            LakeCommitter committer = new LakeCommitter(config, new LakeMetrics(new UnregisteredMetricsGroup()), observing);
            List<RecordingCommitRequest<WindowCommittable>> requests = new ArrayList<>();
            committables.forEach(c -> requests.add(new RecordingCommitRequest<>(c)));
            Collections.reverse(requests);
            try {
                committer.commit(new ArrayList<CommitRequest<WindowCommittable>>(requests));
            } finally {
                committer.close();
            }

            assertThat(requests).extracting(RecordingCommitRequest::outcome)
                    .containsOnly(RecordingCommitRequest.Outcome.COMMITTED);
            String alpha = store.committedKey("alpha");
            String beta = store.committedKey("beta");
            // Committed one queue after the other, beta's first intent would follow alpha's last pointer.
            assertThat(moves.indexOf(intentKey("beta") + "=1")).as("beta started while alpha committed: %s", moves)
                    .isLessThan(moves.indexOf(alpha + "=3"));
            for (String queue : List.of("alpha", "beta")) {
                String pointer = store.committedKey(queue);
                String intent = new Intents(client(broker), "default").intentKey(queue);
                assertThat(moves.stream().filter(m -> m.startsWith(pointer + "=") || m.startsWith(intent + "=")))
                        .containsExactly(intent + "=1", pointer + "=1", intent + "=2", pointer + "=2",
                                intent + "=3", pointer + "=3");
            }
            LakeAssertions.assertLakeHoldsEveryWindowOnce(new FlinkLakeFiles(root), Prefix.DEFAULT, world, store::read);
        }
    }

    @Test
    void aRefusedTokenFailsTheCommitForGoodNamingQueenToken() throws Exception {
        TestWindows world = new TestWindows(List.of("alpha", "beta"), 1, 2);
        String root = dir.toUri().toString() + "lake";
        try (DevBroker broker = DevBroker.start(DevBrokerOptions.builder().token("right").build())) {
            LakeSinkConfig config = LakeSink.builder().root(root).brokerUrl(broker.url().toString()).token("right")
                    .build().config();
            List<CommitRequest<WindowCommittable>> requests = new ArrayList<>();
            stagedWindows(config, world).forEach(c -> requests.add(new RecordingCommitRequest<>(c)));
            QueenClient wrongToken = HttpQueenClient.builder().baseUrl(broker.url().toString()).token("wrong").build();
            LakeCommitter committer = new LakeCommitter(config, new LakeMetrics(new UnregisteredMetricsGroup()), wrongToken);
            try {
                assertThatThrownBy(() -> committer.commit(requests))
                        .isInstanceOf(SuppressRestartsException.class)
                        .rootCause().hasMessageContaining("refused the token").hasMessageEndingWith("check QUEEN_TOKEN");
            } finally {
                committer.close();
            }
        }
    }

    @Test
    void aFencedQueueStopsAloneWhileTheOtherQueuesOfItsKvCallsCommitEveryWindow() throws Exception {
        List<String> queues = List.of("q0", "q1", "q2", "q3", "q4", "q5", "q6", "fenced");
        TestWindows world = new TestWindows(queues, 3, 2);
        String root = dir.toUri().toString() + "lake";
        try (DevBroker broker = DevBroker.start(DevBrokerOptions.builder().build())) {
            LakeSinkConfig config = LakeSink.builder().root(root).brokerUrl(broker.url().toString())
                    .commitKvWritesPerSecond(2).build().config();
            List<WindowCommittable> committables = stagedWindows(config, world);
            CommitPointers store = new CommitPointers(client(broker), "default");
            // Another writer moved the pointer of one queue.
            assertThat(store.move("fenced", store.read("fenced"),
                    new Committed(7, world.window("fenced", 2).window().bounds().tEnd(), "elsewhere", 1, 1, 1L)).applied())
                    .isTrue();
            List<Integer> opsPerWriteCall = Collections.synchronizedList(new ArrayList<>());
            QueenClient counting = new ForwardingQueenClient(client(broker)) {
                @Override
                public KvAnswer kv(List<KvOp> ops) {
                    if (ops.stream().anyMatch(op -> op instanceof KvOp.Put)) {
                        opsPerWriteCall.add(ops.size());
                    }
                    return super.kv(ops);
                }
            };
            List<RecordingCommitRequest<WindowCommittable>> requests = new ArrayList<>();
            committables.forEach(c -> requests.add(new RecordingCommitRequest<>(c)));
            LakeCommitter committer = new LakeCommitter(config, new LakeMetrics(new UnregisteredMetricsGroup()), counting);
            try {
                assertThatThrownBy(() -> committer.commit(new ArrayList<CommitRequest<WindowCommittable>>(requests)))
                        .isInstanceOf(SuppressRestartsException.class)
                        .rootCause().hasMessageStartingWith("queue 'fenced' is fenced");
            } finally {
                committer.close();
            }

            for (String queue : queues.subList(0, 7)) {
                assertThat(store.read(queue).pointer()).as("pointer of %s", queue).hasValueSatisfying(
                        p -> assertThat(p.k()).isEqualTo(3));
            }
            assertThat(store.read("fenced").pointer().orElseThrow().manifest()).isEqualTo("elsewhere");
            // Seven queues, three windows, an intent and a pointer each: 42 puts at two calls a second
            // share calls, several queues a call.
            assertThat(opsPerWriteCall.stream().mapToInt(Integer::intValue).sum()).isGreaterThanOrEqualTo(42);
            assertThat(opsPerWriteCall.size()).as("KV write calls, by size: %s", opsPerWriteCall).isLessThan(21);
        }
    }

    static List<WindowCommittable> stagedWindows(LakeSinkConfig config, TestWindows world) throws Exception {
        LakeWriter writer = new LakeWriter(config, new InlineMailbox(), 0);
        try {
            for (int w = 0; w < world.windowsPerQueue(); w++) {
                for (String queue : world.queues()) {
                    writer.write(world.window(queue, w), null);
                }
            }
            return new ArrayList<>(writer.prepareCommit());
        } finally {
            writer.close();
        }
    }

    private static String intentKey(String queue) {
        return new io.queenlake.broker.kv.SinkKeys("default").intent(queue);
    }

    static QueenClient client(DevBroker broker) {
        return HttpQueenClient.builder().baseUrl(broker.url().toString()).build();
    }

    static void awaitAtMost(CountDownLatch latch, long seconds) {
        try {
            latch.await(seconds, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
