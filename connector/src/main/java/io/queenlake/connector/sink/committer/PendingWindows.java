package io.queenlake.connector.sink.committer;

import io.queenlake.connector.sink.committable.WindowCommittable;
import io.queenlake.connector.sink.committable.WindowCommittableSerializer;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * The commit operator's state: every staged window it received and has not seen in the lake yet,
 * per queue in arrival ({@code k}) order, each with the checkpoint whose completion makes it
 * committable, and whether it was released to the commit lanes. A window leaves only once its
 * lane reported it committed, so a checkpoint taken while its commit is in flight still holds it
 * (and a restore commits it again, which finds it committed or finishes it under the same keys).
 * Task thread only.
 */
final class PendingWindows {

    private static final int FORMAT = 1;

    private static final class Pending {
        final long checkpointId;
        final WindowCommittable window;
        boolean released;

        Pending(long checkpointId, WindowCommittable window, boolean released) {
            this.checkpointId = checkpointId;
            this.window = window;
            this.released = released;
        }
    }

    private final Map<String, Deque<Pending>> byQueue = new LinkedHashMap<>();
    private int size;

    /** A window staged for {@code checkpointId}: committable once that checkpoint completed. */
    void add(long checkpointId, WindowCommittable window) {
        byQueue.computeIfAbsent(window.queue(), q -> new ArrayDeque<>()).addLast(new Pending(checkpointId, window, false));
        size++;
    }

    /** The windows of checkpoints up to {@code checkpointId} not released before, in arrival order per queue; now released. */
    List<WindowCommittable> release(long checkpointId) {
        List<WindowCommittable> released = new ArrayList<>();
        for (Deque<Pending> queue : byQueue.values()) {
            for (Pending p : queue) {
                if (!p.released && p.checkpointId <= checkpointId) {
                    p.released = true;
                    released.add(p.window);
                }
            }
        }
        return released;
    }

    /** The window is in the lake: it leaves the state. */
    void committed(WindowCommittable window) {
        Deque<Pending> queue = byQueue.get(window.queue());
        if (queue == null) {
            return;
        }
        for (Iterator<Pending> it = queue.iterator(); it.hasNext(); ) {
            if (it.next().window.k() == window.k()) {
                it.remove();
                size--;
                break;
            }
        }
        if (queue.isEmpty()) {
            byQueue.remove(window.queue());
        }
    }

    int size() {
        return size;
    }

    /** Released and not yet in the lake: what the commit lanes work on. */
    long inFlight() {
        return byQueue.values().stream().flatMap(Deque::stream).filter(p -> p.released).count();
    }

    /** One entry per queue, so a rescale moves a queue's windows together. */
    List<byte[]> snapshot() throws IOException {
        WindowCommittableSerializer serializer = new WindowCommittableSerializer();
        List<byte[]> entries = new ArrayList<>(byQueue.size());
        for (Deque<Pending> queue : byQueue.values()) {
            DataOutputSerializer out = new DataOutputSerializer(256 * queue.size());
            out.writeInt(FORMAT);
            out.writeInt(queue.size());
            for (Pending p : queue) {
                out.writeLong(p.checkpointId);
                byte[] window = SimpleVersionedSerialization.writeVersionAndSerialize(serializer, p.window);
                out.writeInt(window.length);
                out.write(window);
            }
            entries.add(out.getCopyOfBuffer());
        }
        return entries;
    }

    /**
     * The windows of a restored state. Each belongs to a checkpoint that completed (the one restored
     * or an earlier one), so all are committable: they come back released.
     */
    static PendingWindows restore(Iterable<byte[]> entries) throws IOException {
        WindowCommittableSerializer serializer = new WindowCommittableSerializer();
        PendingWindows restored = new PendingWindows();
        for (byte[] entry : entries) {
            DataInputDeserializer in = new DataInputDeserializer(entry);
            int format = in.readInt();
            if (format != FORMAT) {
                throw new IOException("the commit operator's state has format " + format + ", this release reads "
                        + FORMAT + ": restore it with the release that wrote it, or start without state");
            }
            for (int n = in.readInt(); n > 0; n--) {
                long checkpointId = in.readLong();
                byte[] window = new byte[in.readInt()];
                in.readFully(window);
                WindowCommittable w = SimpleVersionedSerialization.readVersionAndDeSerialize(serializer, window);
                restored.byQueue.computeIfAbsent(w.queue(), q -> new ArrayDeque<>())
                        .addLast(new Pending(checkpointId, w, true));
                restored.size++;
            }
        }
        return restored;
    }

    /** Every window held, in arrival order per queue. */
    List<WindowCommittable> windows() {
        return byQueue.values().stream().flatMap(Deque::stream).map(p -> p.window).toList();
    }
}
