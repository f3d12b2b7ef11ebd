package io.queenlake.devstack.broker;

import java.util.UUID;

/**
 * Every change to the broker's state, as one value. The broker applies an entry the same way when a
 * request makes it and when the journal replays it, so a restarted broker rebuilds exactly what it had.
 */
sealed interface JournalEntry {

    record QueueCreated(String tenant, String queue) implements JournalEntry {}

    record QueueConfigured(String tenant, String queue, RetentionOptions retention) implements JournalEntry {}

    /** A new incarnation; a snapshot restores it with its bounds and last write. */
    record PartitionCreated(String tenant, String queue, String partition, UUID id, long pid, long logStart,
            long lastWriteAt) implements JournalEntry {}

    record RecordAppended(String tenant, String queue, String partition, long offset, long stamp,
            String transactionId, byte[] payload) implements JournalEntry {}

    /** A transaction id whose record retention removed, still inside the dedup window (snapshots only). */
    record TransactionRemembered(String tenant, String queue, String partition, String transactionId, long offset,
            long stamp) implements JournalEntry {}

    record PartitionDeleted(String tenant, String queue, String partition) implements JournalEntry {}

    record LogTrimmed(String tenant, String queue, String partition, long logStart) implements JournalEntry {}

    /** A KV document's new state; a null row is a delete. */
    record KvWritten(String tenant, String ns, String key, KvRow row) implements JournalEntry {}

    /** The high-water marks of the clock and the sequences, written after every change. */
    record Sequences(long lastStamp, long lastKvVersion, long lastPid, long lastQueueSeq) implements JournalEntry {}
}
