package io.queenlake.connector.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queenlake.format.jsonl.Compression;
import io.queenlake.format.object.Format;
import java.time.Duration;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class LakeSinkBuilderTest {

    private static LakeSinkBuilder valid() {
        return LakeSink.builder().root("s3://lake/").brokerUrl("http://127.0.0.1:6632");
    }

    @Test
    void aValidSinkKeepsItsRootWithoutTrailingSlashAndHidesTheToken() {
        LakeSink sink = valid().token("s3cr3t").build();

        assertThat(sink.config().root()).isEqualTo("s3://lake");
        assertThat(sink.config().pathOf("queen/a%20b.json").toUri().getPath()).isEqualTo("/queen/a%20b.json");
        assertThat(sink.config().toString()).doesNotContain("s3cr3t").contains("token=set");
        assertThat(sink.config().crashHook()).isEmpty();
    }

    @Test
    void aFlinkConfigurationSetsTheSinksOptionsAndLeavesTheRest() {
        Configuration config = Configuration.fromMap(Map.of("queen.s3.format", "ndjson", "queen.s3.compression", "gz",
                "queen.s3.commit-concurrency", "3", "queen.s3.prefix", "mirror", "queen.s3.sink", "eu"));

        LakeSinkConfig sink = valid().commitKvWritesPerSecond(5).configure(config).build().config();

        assertThat(sink.writerSettings().format()).isEqualTo(new Format.Jsonl(Compression.GZIP));
        assertThat(sink.prefix().value()).isEqualTo("mirror");
        assertThat(sink.sinkName()).isEqualTo("eu");
        assertThat(sink.commitConcurrency()).isEqualTo(3);
        assertThat(sink.commitKvWritesPerSecond()).as("unset in the configuration").isEqualTo(5);
        assertThat(sink.brokerUrl()).isEqualTo("http://127.0.0.1:6632");
        assertThatThrownBy(() -> valid().configure(Configuration.fromMap(Map.of("queen.s3.layout", "per-queue"))))
                .hasMessage("queen.s3.layout='per-queue' is not an accepted value: allowed merged or per-partition.");
    }

    static Stream<Arguments> refusals() {
        return Stream.of(
                Arguments.of((UnaryOperator<LakeSinkBuilder>) b -> b.root(null), "lake root is required"),
                Arguments.of((UnaryOperator<LakeSinkBuilder>) b -> b.root("lake"), "has no scheme"),
                Arguments.of((UnaryOperator<LakeSinkBuilder>) b -> b.root("s3:///x"), "names no bucket"),
                Arguments.of((UnaryOperator<LakeSinkBuilder>) b -> b.root("file:///"), "file system root"),
                Arguments.of((UnaryOperator<LakeSinkBuilder>) b -> b.root("s3://lake?x=1"), "query or fragment"),
                Arguments.of((UnaryOperator<LakeSinkBuilder>) b -> b.sinkName("a:b"), "fix queen.s3.sink."),
                Arguments.of((UnaryOperator<LakeSinkBuilder>) b -> b.tenant("acme"), "is not a UUID"),
                Arguments.of((UnaryOperator<LakeSinkBuilder>) b -> b.brokerUrl(null), "set queen.url."),
                Arguments.of((UnaryOperator<LakeSinkBuilder>) b -> b.brokerUrl("ftp://x"), "fix queen.url."),
                Arguments.of((UnaryOperator<LakeSinkBuilder>) b -> b.requestTimeout(Duration.ZERO), "timeout must be above zero"),
                Arguments.of((UnaryOperator<LakeSinkBuilder>) b -> b.writerSettings(null), "writer settings are required"),
                Arguments.of((UnaryOperator<LakeSinkBuilder>) b -> b.commitConcurrency(0),
                        "queen.s3.commit-concurrency=0 is out of range: allowed 1..1024."),
                Arguments.of((UnaryOperator<LakeSinkBuilder>) b -> b.commitKvWritesPerSecond(10_001),
                        "queen.s3.commit-kv-writes-per-second=10001 is out of range: allowed 1..10000."));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("refusals")
    void everyBadSettingIsRefusedInOneSentenceNamingIt(UnaryOperator<LakeSinkBuilder> change, String named) {
        assertThatThrownBy(() -> change.apply(valid()).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(named);
    }
}
