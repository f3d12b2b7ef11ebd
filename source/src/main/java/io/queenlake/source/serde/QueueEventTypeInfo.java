package io.queenlake.source.serde;

import io.queenlake.source.QueueEvent;
import org.apache.flink.annotation.PublicEvolving;

/**
 * The type of what QueenSource emits, for the pipeline
 * ({@code env.fromSource(source, watermarks, name, QueueEventTypeInfo.INSTANCE)}): its edge uses
 * {@link QueueEventSerializer}, never Kryo.
 */
@PublicEvolving
public final class QueueEventTypeInfo extends SingleSerializerTypeInfo<QueueEvent> {

    private static final long serialVersionUID = 1L;

    public static final QueueEventTypeInfo INSTANCE = new QueueEventTypeInfo();

    public QueueEventTypeInfo() {
        super(QueueEvent.class, QueueEventSerializer.INSTANCE);
    }
}
