package io.queenlake.devstack.broker;

import io.queenlake.devstack.broker.JournalEntry.KvWritten;
import io.queenlake.devstack.broker.JournalEntry.LogTrimmed;
import io.queenlake.devstack.broker.JournalEntry.PartitionCreated;
import io.queenlake.devstack.broker.JournalEntry.PartitionDeleted;
import io.queenlake.devstack.broker.JournalEntry.QueueConfigured;
import io.queenlake.devstack.broker.JournalEntry.QueueCreated;
import io.queenlake.devstack.broker.JournalEntry.RecordAppended;
import io.queenlake.devstack.broker.JournalEntry.Sequences;
import io.queenlake.devstack.broker.JournalEntry.TransactionRemembered;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/** The bytes of one journal entry: a type tag, then its fields. The frame around it belongs to {@link Journal}. */
final class JournalCodec {

    private static final int QUEUE_CREATED = 1;
    private static final int QUEUE_CONFIGURED = 2;
    private static final int PARTITION_CREATED = 3;
    private static final int RECORD_APPENDED = 4;
    private static final int TRANSACTION_REMEMBERED = 5;
    private static final int PARTITION_DELETED = 6;
    private static final int LOG_TRIMMED = 7;
    private static final int KV_WRITTEN = 8;
    private static final int SEQUENCES = 9;

    private JournalCodec() {}

    static byte[] encode(JournalEntry entry) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            if (entry instanceof QueueCreated e) {
                out.writeByte(QUEUE_CREATED);
                text(out, e.tenant());
                text(out, e.queue());
            } else if (entry instanceof QueueConfigured e) {
                out.writeByte(QUEUE_CONFIGURED);
                text(out, e.tenant());
                text(out, e.queue());
                out.writeBoolean(e.retention().enabled());
                out.writeLong(e.retention().seconds());
                text(out, e.retention().sinkHold());
                out.writeLong(e.retention().sinkHoldMaxSeconds());
            } else if (entry instanceof PartitionCreated e) {
                out.writeByte(PARTITION_CREATED);
                partition(out, e.tenant(), e.queue(), e.partition());
                out.writeLong(e.id().getMostSignificantBits());
                out.writeLong(e.id().getLeastSignificantBits());
                out.writeLong(e.pid());
                out.writeLong(e.logStart());
                out.writeLong(e.lastWriteAt());
            } else if (entry instanceof RecordAppended e) {
                out.writeByte(RECORD_APPENDED);
                partition(out, e.tenant(), e.queue(), e.partition());
                out.writeLong(e.offset());
                out.writeLong(e.stamp());
                text(out, e.transactionId());
                blob(out, e.payload());
            } else if (entry instanceof TransactionRemembered e) {
                out.writeByte(TRANSACTION_REMEMBERED);
                partition(out, e.tenant(), e.queue(), e.partition());
                text(out, e.transactionId());
                out.writeLong(e.offset());
                out.writeLong(e.stamp());
            } else if (entry instanceof PartitionDeleted e) {
                out.writeByte(PARTITION_DELETED);
                partition(out, e.tenant(), e.queue(), e.partition());
            } else if (entry instanceof LogTrimmed e) {
                out.writeByte(LOG_TRIMMED);
                partition(out, e.tenant(), e.queue(), e.partition());
                out.writeLong(e.logStart());
            } else if (entry instanceof KvWritten e) {
                out.writeByte(KV_WRITTEN);
                text(out, e.tenant());
                text(out, e.ns());
                text(out, e.key());
                out.writeBoolean(e.row() != null);
                if (e.row() != null) {
                    blob(out, e.row().value());
                    out.writeLong(e.row().version());
                    out.writeLong(e.row().expiresAtMicros());
                    out.writeLong(e.row().updatedAtMicros());
                }
            } else if (entry instanceof Sequences e) {
                out.writeByte(SEQUENCES);
                out.writeLong(e.lastStamp());
                out.writeLong(e.lastKvVersion());
                out.writeLong(e.lastPid());
                out.writeLong(e.lastQueueSeq());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static JournalEntry decode(byte[] bytes) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
        int type = in.readUnsignedByte();
        return switch (type) {
            case QUEUE_CREATED -> new QueueCreated(text(in), text(in));
            case QUEUE_CONFIGURED -> new QueueConfigured(text(in), text(in),
                    new RetentionOptions(in.readBoolean(), in.readLong(), text(in), in.readLong()));
            case PARTITION_CREATED -> new PartitionCreated(text(in), text(in), text(in),
                    new UUID(in.readLong(), in.readLong()), in.readLong(), in.readLong(), in.readLong());
            case RECORD_APPENDED -> new RecordAppended(text(in), text(in), text(in), in.readLong(), in.readLong(),
                    text(in), blob(in));
            case TRANSACTION_REMEMBERED -> new TransactionRemembered(text(in), text(in), text(in), text(in),
                    in.readLong(), in.readLong());
            case PARTITION_DELETED -> new PartitionDeleted(text(in), text(in), text(in));
            case LOG_TRIMMED -> new LogTrimmed(text(in), text(in), text(in), in.readLong());
            case KV_WRITTEN -> {
                String tenant = text(in);
                String ns = text(in);
                String key = text(in);
                KvRow row = in.readBoolean() ? new KvRow(blob(in), in.readLong(), in.readLong(), in.readLong()) : null;
                yield new KvWritten(tenant, ns, key, row);
            }
            case SEQUENCES -> new Sequences(in.readLong(), in.readLong(), in.readLong(), in.readLong());
            default -> throw new IOException("journal entry type " + type + " is unknown");
        };
    }

    private static void partition(DataOutputStream out, String tenant, String queue, String partition) throws IOException {
        text(out, tenant);
        text(out, queue);
        text(out, partition);
    }

    private static void text(DataOutputStream out, String s) throws IOException {
        blob(out, s.getBytes(StandardCharsets.UTF_8));
    }

    private static void blob(DataOutputStream out, byte[] b) throws IOException {
        out.writeInt(b.length);
        out.write(b);
    }

    private static String text(DataInputStream in) throws IOException {
        return new String(blob(in), StandardCharsets.UTF_8);
    }

    private static byte[] blob(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > in.available()) {
            throw new IOException("journal entry field of " + n + " bytes overruns its entry");
        }
        return in.readNBytes(n);
    }
}
