package io.queenlake.connector.window;

import io.queenlake.source.OpenWindows;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.flink.annotation.Internal;

/**
 * Which closed windows the sink writer of this task has handed on as committables, per queue: the
 * windows chained to the source checkpoint a queue's cut at the last window handed on, and read
 * everything after it again on a restore, so a window whose objects are still being staged at a
 * barrier is neither waited for nor kept in Flink state (docs/ARCHITECTURE.md "Two-phase commit").
 *
 * <p>The writer registers it when it is created, the windows find it when they open (operators of
 * a task are created tail first, on the task's one thread), and both then use it from that thread
 * only: the writer at {@code prepareCommit}, before the barrier; the windows at the snapshot that
 * follows. A writer with no windows behind it in its task (the sink alone) never sees it
 * {@link #observed}, and keeps waiting for its stagings at every barrier.
 */
@Internal
public final class WindowHandover {

    private static final ThreadLocal<WindowHandover> OF_TASK = new ThreadLocal<>();

    private final Map<String, Long> handedThrough = new HashMap<>();
    private boolean observed;
    private Supplier<CompletableFuture<Void>> stagingRoom = () -> OpenWindows.READY;

    private WindowHandover() {}

    /** The writer's: a new hand-over for the calling task's thread. */
    public static WindowHandover registerForThisTask() {
        WindowHandover handover = new WindowHandover();
        OF_TASK.set(handover);
        return handover;
    }

    /** The windows': the hand-over of the writer chained behind them, which from now on counts on them. */
    static Optional<WindowHandover> observeForThisTask() {
        WindowHandover handover = OF_TASK.get();
        if (handover != null) {
            handover.observed = true;
        }
        return Optional.ofNullable(handover);
    }

    public static void unregister(WindowHandover handover) {
        if (OF_TASK.get() == handover) {
            OF_TASK.remove();
        }
    }

    /** Whether windows chained before the writer read the queues again from their cuts (and so need no wait). */
    public boolean observed() {
        return observed;
    }

    /**
     * The writer's: where the windows learn whether its staging has room; done while it has,
     * otherwise completing when it has again (the writer never blocks the windows' close: it takes
     * every window handed to it, and the reader stops emitting while this is not done).
     */
    public void stagingRoomFrom(Supplier<CompletableFuture<Void>> room) {
        this.stagingRoom = room;
    }

    /** Done while the writer's staging has room ({@link #stagingRoomFrom}). */
    CompletableFuture<Void> stagingRoom() {
        return stagingRoom.get();
    }

    /** Window {@code k} of {@code queue} (and every earlier one) is in a committable now. */
    public void handedOn(String queue, long k) {
        handedThrough.merge(queue, k, Math::max);
    }

    /** The last window of {@code queue} handed on, {@link Long#MIN_VALUE} before any. */
    long handedThrough(String queue) {
        return handedThrough.getOrDefault(queue, Long.MIN_VALUE);
    }
}
