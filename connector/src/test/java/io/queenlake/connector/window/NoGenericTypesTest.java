package io.queenlake.connector.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.format.jsonl.Compression;
import io.queenlake.format.model.Align;
import io.queenlake.format.object.Format;
import io.queenlake.format.model.LogRecord;
import io.queenlake.source.QueueRecord;
import io.queenlake.source.serde.QueueRecordTypeInfo;
import io.queenlake.source.serde.QueueRecordSerializer;
import java.time.Duration;
import java.util.List;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.junit.jupiter.api.Test;

/** With generic types disabled, Flink refuses any Kryo fallback; the window path must build without one. */
class NoGenericTypesTest {

    @Test
    void closedWindowFindsItsOwnTypeInformation() {
        assertThat(TypeInformation.of(ClosedWindow.class)).isEqualTo(ClosedWindowTypeInfo.INSTANCE);
        SerializerConfigImpl noKryo = new SerializerConfigImpl();
        noKryo.setGenericTypes(false);
        assertThat(TypeInformation.of(ClosedWindow.class).createSerializer(noKryo))
                .isSameAs(ClosedWindowSerializer.INSTANCE);
        assertThat(QueueRecordTypeInfo.INSTANCE.createSerializer(noKryo)).isSameAs(QueueRecordSerializer.INSTANCE);
    }

    @Test
    @SuppressWarnings({"unchecked", "rawtypes"})
    void theWindowPipelineBuildsWithGenericTypesDisabled() {
        Configuration conf = new Configuration();
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        WindowSettings settings = new WindowSettings(WindowSettings.DEFAULT_TENANT, "default", 300_000, Align.HOUR,
                1 << 20, 20, "http://127.0.0.1:1", null, Duration.ofSeconds(5));
        DataStream<QueueRecord> records = env.fromData(QueueRecordTypeInfo.INSTANCE,
                QueueRecord.of("orders", new LogRecord("a", "", 0, "", 1_000_000L, null)));
        records.keyBy(QueueRecord::queue, Types.STRING)
                // (raw cast: the operator takes QueueEvent now; the pipeline's rewiring updates this test)
                .transform("lake windows", ClosedWindowTypeInfo.INSTANCE,
                        (org.apache.flink.streaming.api.operators.OneInputStreamOperator) new LakeWindowOperator(settings,
                                new Format.Jsonl(Compression.ZSTD)))
                .sinkTo(new DiscardingSink<>());
        StreamGraph graph = env.getStreamGraph();
        List<String> serializers = graph.getStreamNodes().stream()
                .map(StreamNode::getTypeSerializerOut)
                .filter(s -> s != null)
                .map(s -> s.getClass().getSimpleName())
                .toList();
        assertThat(serializers).contains("QueueRecordSerializer", "ClosedWindowSerializer").doesNotContain("KryoSerializer");
    }
}
