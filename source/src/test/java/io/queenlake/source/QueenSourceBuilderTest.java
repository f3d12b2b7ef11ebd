package io.queenlake.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The builder's defaults are its options' and its refusals are one line naming the option's Flink key and what is allowed. */
class QueenSourceBuilderTest {

    private static QueenSourceBuilder valid() {
        return QueenSource.builder().brokerUrl("http://127.0.0.1:6632/").queues("orders").instance("lake-a");
    }

    @Test
    void anUntouchedBuilderTakesTheReferenceSinksDefaults() {
        QueenSourceConfig config = valid().build().config();

        assertThat(config.brokerUrl()).isEqualTo("http://127.0.0.1:6632");
        assertThat(config.tenant()).isEqualTo("00000000-0000-0000-0000-000000000001");
        assertThat(config.sink()).isEqualTo("default");
        assertThat(config.start()).isEqualTo(StartMode.LATEST);
        assertThat(config.safeGuardMs()).isEqualTo(5_000);
        assertThat(config.discoveryIntervalMs()).isEqualTo(2_000);
        assertThat(config.fetchConcurrency()).isEqualTo(4);
        assertThat(config.leaseTtlMs()).isEqualTo(30_000);
        assertThat(config.maxWindowMs()).isEqualTo(300_000);
        assertThat(config.requestTimeoutMs()).isEqualTo(30_000);
        assertThat(config.queues()).isEqualTo(List.of("orders"));
    }

    @Test
    void theSourceSaysWhatItProducesSoFromSourceNeedsNoTypeHintAndNoKryo() {
        org.apache.flink.configuration.Configuration conf = new org.apache.flink.configuration.Configuration();
        conf.set(org.apache.flink.configuration.PipelineOptions.GENERIC_TYPES, false);
        var env = org.apache.flink.streaming.api.environment.StreamExecutionEnvironment.getExecutionEnvironment(conf);
        QueenSource source = valid().build();

        var events = env.fromSource(source, source.watermarkStrategy(), "Queen source");

        assertThat(source.getProducedType()).isSameAs(io.queenlake.source.serde.QueueEventTypeInfo.INSTANCE);
        assertThat(events.getType()).isSameAs(io.queenlake.source.serde.QueueEventTypeInfo.INSTANCE);
    }

    @Test
    void anUnsetInstanceIsDrawnOncePerBuildAndTheSourceKeepsItThroughSerialization() throws Exception {
        QueenSource source = valid().instance(null).build();
        String drawn = source.config().instance();
        assertThat(drawn).matches("queen-lake@[^/]+/[0-9a-f]{8}");

        // How Flink ships the source to the JobManager and recovers it: the name travels with it.
        QueenSource shipped = org.apache.flink.util.InstantiationUtil.clone(source);
        assertThat(shipped.config().instance()).isEqualTo(drawn);
        assertThat(valid().instance(" ").build().config().instance()).as("another job's build draws another")
                .startsWith(drawn.substring(0, drawn.indexOf('/') + 1)).isNotEqualTo(drawn);
        assertThat(valid().build().config().instance()).isEqualTo("lake-a");
    }

    @Test
    void everyRangeEdgeIsAccepted() {
        QueenSourceConfig config = valid().safeGuardMs(0).discoveryIntervalMs(3_600_000).fetchConcurrency(256)
                .leaseTtlMs(1_000).maxWindowMs(86_400_000).requestTimeoutMs(100).sink("eu.lake_2")
                .tenant("0A1B2C3D-0000-4000-8000-00000000AAAA").build().config();

        assertThat(config.maxWindowMs()).isEqualTo(86_400_000);
        assertThat(config.sink()).isEqualTo("eu.lake_2");
    }

    static Stream<Arguments> refusals() {
        return Stream.of(
                Arguments.of((UnaryOperator<QueenSourceBuilder>) b -> b.brokerUrl("ftp://x"),
                        "queen.url='ftp://x' must start with http:// or https://: set one broker node's base URL,"
                                + " e.g. http://queen:6632."),
                Arguments.of((UnaryOperator<QueenSourceBuilder>) b -> b.queues(List.of()),
                        "queen.s3.queues is required but not provided: list the queues to mirror (a,b) or * for all."),
                Arguments.of((UnaryOperator<QueenSourceBuilder>) b -> b.queues("*", "a"),
                        "queen.s3.queues=*,a mixes * with names: use * alone or a list of names."),
                Arguments.of((UnaryOperator<QueenSourceBuilder>) b -> b.tenant("acme"),
                        "queen.tenant='acme' is not valid: allowed a UUID."),
                Arguments.of((UnaryOperator<QueenSourceBuilder>) b -> b.sink("a:b"),
                        "queen.s3.sink='a:b' is not valid: allowed 1 to 64 of A-Z a-z 0-9 . _ -."),
                Arguments.of((UnaryOperator<QueenSourceBuilder>) b -> b.sink("x".repeat(65)),
                        "queen.s3.sink='" + "x".repeat(65) + "' is not valid: allowed 1 to 64 of A-Z a-z 0-9 . _ -."),
                Arguments.of((UnaryOperator<QueenSourceBuilder>) b -> b.safeGuardMs(-1),
                        "queen.s3.safe-guard-ms=-1 is out of range: allowed 0..3600000."),
                Arguments.of((UnaryOperator<QueenSourceBuilder>) b -> b.discoveryIntervalMs(9),
                        "queen.s3.discovery-interval-ms=9 is out of range: allowed 10..3600000."),
                Arguments.of((UnaryOperator<QueenSourceBuilder>) b -> b.fetchConcurrency(257),
                        "queen.s3.fetch-concurrency=257 is out of range: allowed 1..256."),
                Arguments.of((UnaryOperator<QueenSourceBuilder>) b -> b.leaseTtlMs(999),
                        "queen.s3.lease-ttl-ms=999 is out of range: allowed 1000..3600000."),
                Arguments.of((UnaryOperator<QueenSourceBuilder>) b -> b.maxWindowMs(86_400_001),
                        "queen.s3.max-window-ms=86400001 is out of range: allowed 100..86400000."),
                Arguments.of((UnaryOperator<QueenSourceBuilder>) b -> b.instance("x".repeat(129)),
                        "queen.s3.instance='" + "x".repeat(129) + "' is too long or has control characters: allowed 1 to"
                                + " 128 printable characters."),
                Arguments.of((UnaryOperator<QueenSourceBuilder>) b -> b.requestTimeoutMs(99),
                        "request timeout (ms)=99 is out of range: allowed 100..3600000"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("refusals")
    void everyBadOptionIsRefusedInOneLine(UnaryOperator<QueenSourceBuilder> change, String message) {
        assertThatThrownBy(() -> change.apply(valid()).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(message);
    }

    @Test
    void aFlinkConfigurationSetsWhatItHoldsAndLeavesTheRest() {
        Configuration config = Configuration.fromMap(Map.of("queen.s3.queues", "*", "queen.s3.start", "now",
                "queen.s3.lease-ttl-ms", "1000", "queen.s3.fetch-concurrency", "256"));

        QueenSourceConfig source = valid().safeGuardMs(0).configure(config).build().config();

        assertThat(source.queues()).containsExactly("*");
        assertThat(source.start()).isEqualTo(StartMode.LATEST);
        assertThat(source.leaseTtlMs()).isEqualTo(1_000);
        assertThat(source.fetchConcurrency()).isEqualTo(256);
        assertThat(source.safeGuardMs()).as("unset in the configuration").isZero();
        assertThat(source.brokerUrl()).isEqualTo("http://127.0.0.1:6632");
        assertThatThrownBy(() -> valid().configure(Configuration.fromMap(Map.of("queen.s3.fetch-concurrency", "0"))))
                .hasMessage("queen.s3.fetch-concurrency='0' is out of range: allowed 1..256.");
    }

    @Test
    void theStartSpellingsAreTheOptionsOwn() {
        assertThat(StartMode.parse(" Beginning ")).isEqualTo(StartMode.EARLIEST);
        assertThat(StartMode.parse("now")).isEqualTo(StartMode.LATEST);
        assertThatThrownBy(() -> StartMode.parse("tomorrow"))
                .hasMessage("queen.s3.start='tomorrow' is not a start position: use latest (or now, end) or earliest"
                        + " (or beginning).");
    }
}
