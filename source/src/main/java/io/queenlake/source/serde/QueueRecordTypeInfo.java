package io.queenlake.source.serde;

import io.queenlake.source.QueueRecord;
import org.apache.flink.annotation.PublicEvolving;

/**
 * The type of QueenSource's records for the pipeline
 * ({@code env.fromSource(source, watermarks, name, QueueRecordTypeInfo.INSTANCE)}): the keyBy
 * shuffle then uses {@link QueueRecordSerializer}, never Kryo.
 */
@PublicEvolving
public final class QueueRecordTypeInfo extends SingleSerializerTypeInfo<QueueRecord> {

    private static final long serialVersionUID = 1L;

    public static final QueueRecordTypeInfo INSTANCE = new QueueRecordTypeInfo();

    public QueueRecordTypeInfo() {
        super(QueueRecord.class, QueueRecordSerializer.INSTANCE);
    }
}
