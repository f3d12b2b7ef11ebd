package io.queenlake.source.serde;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.format.model.LogRecord;
import io.queenlake.source.QueueRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/** Records read from the wire share their names, and a name is never swapped for a different one. */
class SharedNamesTest {

    private static QueueRecord roundTrip(QueueRecord record) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64);
        QueueRecordSerializer.INSTANCE.serialize(record, out);
        return QueueRecordSerializer.INSTANCE.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
    }

    private static QueueRecord record(String queue, String partition, long offset) {
        return QueueRecord.of(new String(queue), new LogRecord(new String(partition), new String("id-" + partition),
                offset, "t-" + offset, 9, "1".getBytes(StandardCharsets.UTF_8), true));
    }

    @Test
    void twoRecordsOfOnePartitionShareTheQueuePartitionAndIncarnationNames() throws IOException {
        QueueRecord first = roundTrip(record("orders", "cust-1", 0));
        QueueRecord second = roundTrip(record("orders", "cust-1", 1));

        assertThat(second.queue()).isSameAs(first.queue());
        assertThat(second.record().partition()).isSameAs(first.record().partition());
        assertThat(second.record().partitionId()).isSameAs(first.record().partitionId());
        assertThat(second.record().transactionId()).isNotSameAs(first.record().transactionId());
    }

    @Test
    void namesThatCollideInTheTableStayThemselves() {
        SharedNames names = new SharedNames();
        // "Aa" and "BB" have the same hash code: they take the same slot in turn.
        assertThat(names.share(new String("Aa"))).isEqualTo("Aa");
        assertThat(names.share(new String("BB"))).isEqualTo("BB");
        assertThat(names.share(new String("Aa"))).isEqualTo("Aa");
        String shared = names.share(new String("BB"));
        assertThat(names.share(new String("BB"))).isSameAs(shared);
    }
}
