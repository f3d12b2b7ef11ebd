package io.queenlake.bench.e2e;

import io.queenlake.source.QueueRecord;
import java.io.IOException;
import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.core.fs.FSDataOutputStream;

/**
 * A FileSink peer's bulk format with a record count per part: when a part is finished, its bucket,
 * size and records go to {@link FinishedParts}, so the run sees what is committed from the bucket's
 * listing alone, as it sees the lake's from its pointer. The cost is an increment per record.
 */
final class CountingPartWriters implements BulkWriter.Factory<QueueRecord> {

    private static final long serialVersionUID = 1L;

    private final String run;
    private final BulkWriter.Factory<QueueRecord> format;

    CountingPartWriters(String run, BulkWriter.Factory<QueueRecord> format) {
        this.run = run;
        this.format = format;
    }

    @Override
    public BulkWriter<QueueRecord> create(FSDataOutputStream out) throws IOException {
        BulkWriter<QueueRecord> writer = format.create(out);
        return new BulkWriter<>() {
            private String bucketId;
            private long records;

            @Override
            public void addElement(QueueRecord element) throws IOException {
                if (bucketId == null) {
                    bucketId = QueueBucketAssigner.bucketId(element.queue()); // a part holds one bucket's records
                }
                writer.addElement(element);
                records++;
            }

            @Override
            public void flush() throws IOException {
                writer.flush();
            }

            @Override
            public void finish() throws IOException {
                writer.finish();
                // The format wrote its last bytes; FileSink only closes the stream for commit after this.
                FinishedParts.add(run, new FinishedParts.Part(bucketId, out.getPos(), records));
            }
        };
    }
}
