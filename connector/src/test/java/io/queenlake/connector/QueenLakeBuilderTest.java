package io.queenlake.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queenlake.format.key.KeyBudget;
import io.queenlake.format.key.Prefix;
import io.queenlake.format.model.Align;
import io.queenlake.format.model.Layout;
import io.queenlake.format.object.Format;
import io.queenlake.format.parquet.ParquetCodec;
import io.queenlake.format.window.WriterSettings;
import io.queenlake.connector.sink.LakeSinkOptions;
import io.queenlake.source.QueenSourceConfig;
import io.queenlake.source.QueenSourceOptions;
import io.queenlake.source.StartMode;
import java.time.Duration;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

/**
 * One connection, given once, reaches the source, the windows and the sink alike; each part's own
 * tuning cannot change it; and a missing or wrong setting is refused in one sentence naming it.
 */
class QueenLakeBuilderTest {

    private static final String TENANT = "3f2504e0-4f89-11d3-9a0c-0305e82c3301";

    private static QueenLakeBuilder orders() {
        return QueenLake.builder()
                .brokerUrl("http://queen:6632")
                .token("t0ken")
                .tenant(TENANT)
                .sinkName("eu")
                .requestTimeout(Duration.ofSeconds(7))
                .queues("orders", "refunds")
                .lakeRoot("s3://lake/");
    }

    @Test
    void theConnectionGivenOnceReachesTheSourceTheWindowsAndTheSink() {
        QueenLake lake = orders().maxWindowMs(60_000).checkpointEvery(7).memoryBytes(3L << 20).build();

        QueenSourceConfig source = lake.source().config();
        assertThat(source.brokerUrl()).isEqualTo("http://queen:6632");
        assertThat(source.token()).isEqualTo("t0ken");
        assertThat(source.tenant()).isEqualTo(TENANT);
        assertThat(source.sink()).isEqualTo("eu");
        assertThat(source.requestTimeoutMs()).isEqualTo(7_000);
        assertThat(source.queues()).containsExactly("orders", "refunds");
        assertThat(source.maxWindowMs()).isEqualTo(60_000);
        assertThat(source.lakeRoot()).as("the sink's root with the prefix").isEqualTo("s3://lake/queen");

        assertThat(lake.windows().brokerUrl()).isEqualTo("http://queen:6632");
        assertThat(lake.windows().token()).isEqualTo("t0ken");
        assertThat(lake.windows().tenant()).isEqualTo(TENANT);
        assertThat(lake.windows().sink()).isEqualTo("eu");
        assertThat(lake.windows().requestTimeout()).isEqualTo(Duration.ofSeconds(7));
        assertThat(lake.windows().maxWindowMs()).isEqualTo(60_000);
        assertThat(lake.windows().checkpointEvery()).isEqualTo(7);
        assertThat(lake.windows().memoryBytes()).isEqualTo(3L << 20);

        assertThat(lake.sink().config().brokerUrl()).isEqualTo("http://queen:6632");
        assertThat(lake.sink().config().tenant()).isEqualTo(TENANT);
        assertThat(lake.sink().config().sinkName()).isEqualTo("eu");
        assertThat(lake.sink().config().root()).isEqualTo("s3://lake");
    }

    @Test
    void theWindowGridAndTheKeyBudgetFollowTheWriterSettings() {
        WriterSettings parquet = new WriterSettings(new Format.Parquet(ParquetCodec.ZSTD), Layout.PER_PARTITION, Align.DAY,
                64L << 20);
        QueenLake lake = orders().prefix(Prefix.of("mirror")).writerSettings(parquet).build();

        assertThat(lake.windows().align()).isEqualTo(Align.DAY);
        assertThat(lake.windows().targetBytes()).isEqualTo(64L << 20);
        assertThat(lake.sink().config().writerSettings()).isEqualTo(parquet);
        assertThat(lake.source().config().lakeRoot()).isEqualTo("s3://lake/mirror");
        assertThat(lake.source().config().keyBudget())
                .isEqualTo(KeyBudget.of(Prefix.of("mirror"), TENANT, Layout.PER_PARTITION, "parquet"));
    }

    @Test
    void eachPartsTuningReachesItButCannotChangeTheConnection() {
        QueenLake lake = orders()
                .start(StartMode.EARLIEST)
                .source(source -> source.fetchConcurrency(3).brokerUrl("http://elsewhere:1").sink("other"))
                .sink(sink -> sink.commitConcurrency(9).brokerUrl("http://elsewhere:1").sinkName("other"))
                .build();

        assertThat(lake.source().config().fetchConcurrency()).isEqualTo(3);
        assertThat(lake.source().config().start()).isEqualTo(StartMode.EARLIEST);
        assertThat(lake.source().config().brokerUrl()).isEqualTo("http://queen:6632");
        assertThat(lake.source().config().sink()).isEqualTo("eu");
        assertThat(lake.sink().config().commitConcurrency()).isEqualTo(9);
        assertThat(lake.sink().config().brokerUrl()).isEqualTo("http://queen:6632");
        assertThat(lake.sink().config().sinkName()).isEqualTo("eu");
    }

    @Test
    void aFlinkConfigurationConfiguresTheSourceTheWindowsAndTheSink() {
        // As a config.yaml or -D options give them: text, in any spelling the option's text allows.
        Configuration config = Configuration.fromMap(Map.ofEntries(
                Map.entry("queen.url", "http://broker-a:6632/"),
                Map.entry("queen.tenant", TENANT),
                Map.entry("queen.s3.sink", "from-config"),
                Map.entry("queen.s3.queues", "[\"a,b\", \"c\"]"),
                Map.entry("queen.s3.start", "Beginning"),
                Map.entry("queen.s3.max-window-ms", "60000"),
                Map.entry("queen.s3.checkpoint-every", "5"),
                Map.entry("queen.s3.memory-mb", "3"),
                Map.entry("queen.s3.prefix", "/mirror/"),
                Map.entry("queen.s3.format", "parquet"),
                Map.entry("queen.s3.parquet-codec", "snappy"),
                Map.entry("queen.s3.layout", "per-partition"),
                Map.entry("queen.s3.align", "day"),
                Map.entry("queen.s3.target-mb", "64"),
                Map.entry("queen.s3.instance", "lake-a"),
                Map.entry("queen.s3.safe-guard-ms", "0"),
                Map.entry("queen.s3.commit-concurrency", "9")));
        // Typed, as a program sets them.
        config.set(QueenSourceOptions.FETCH_CONCURRENCY.option(), 7);
        config.set(LakeSinkOptions.COMMIT_KV_WRITES_PER_SECOND.option(), 11);

        QueenLake lake = QueenLake.builder().lakeRoot("s3://lake").configure(config).build();

        QueenSourceConfig source = lake.source().config();
        assertThat(source.brokerUrl()).isEqualTo("http://broker-a:6632");
        assertThat(source.tenant()).isEqualTo(TENANT);
        assertThat(source.sink()).isEqualTo("from-config");
        assertThat(source.queues()).containsExactly("a,b", "c");
        assertThat(source.start()).isEqualTo(StartMode.EARLIEST);
        assertThat(source.maxWindowMs()).isEqualTo(60_000);
        assertThat(source.instance()).isEqualTo("lake-a");
        assertThat(source.safeGuardMs()).isZero();
        assertThat(source.fetchConcurrency()).isEqualTo(7);
        assertThat(source.lakeRoot()).isEqualTo("s3://lake/mirror");
        assertThat(lake.windows().checkpointEvery()).isEqualTo(5);
        assertThat(lake.windows().memoryBytes()).isEqualTo(3L << 20);
        assertThat(lake.windows().align()).isEqualTo(Align.DAY);
        assertThat(lake.windows().targetBytes()).isEqualTo(64L << 20);
        assertThat(lake.sink().config().writerSettings()).isEqualTo(new WriterSettings(new Format.Parquet(ParquetCodec.SNAPPY),
                Layout.PER_PARTITION, Align.DAY, 64L << 20));
        assertThat(lake.sink().config().sinkName()).isEqualTo("from-config");
        assertThat(lake.sink().config().commitConcurrency()).isEqualTo(9);
        assertThat(lake.sink().config().commitKvWritesPerSecond()).isEqualTo(11);
    }

    @Test
    void aKeyTheConfigurationLeavesUnsetKeepsTheBuildersValueAndALaterCallWins() {
        Configuration config = Configuration.fromMap(Map.of("queen.s3.max-window-ms", "60000",
                "queen.s3.fetch-concurrency", "7"));

        QueenLake lake = orders().maxWindowMs(600_000).configure(config).checkpointEvery(3)
                .source(source -> source.fetchConcurrency(2)).build();

        assertThat(lake.source().config().brokerUrl()).as("unset in the configuration").isEqualTo("http://queen:6632");
        assertThat(lake.source().config().queues()).containsExactly("orders", "refunds");
        assertThat(lake.windows().maxWindowMs()).as("the configuration after the call").isEqualTo(60_000);
        assertThat(lake.windows().checkpointEvery()).as("a call after the configuration").isEqualTo(3);
        assertThat(lake.source().config().fetchConcurrency()).as("the part's own tuning").isEqualTo(2);
        assertThat(lake.sink().config().writerSettings()).isEqualTo(WriterSettings.defaults());
    }

    @Test
    void aBadValueInTheConfigurationIsRefusedWhereItIsGivenNamingItsKey() {
        assertThatThrownBy(() -> orders().configure(Configuration.fromMap(Map.of("queen.s3.max-window-ms", "5s"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("queen.s3.max-window-ms='5s' is not a whole number: allowed 100..86400000.");
        assertThatThrownBy(() -> orders().configure(Configuration.fromMap(Map.of("queen.s3.lease-ttl-ms", "10"))))
                .as("a part's own option, refused before the build")
                .hasMessage("queen.s3.lease-ttl-ms='10' is out of range: allowed 1000..3600000.");
        assertThatThrownBy(() -> orders().configure(Configuration.fromMap(Map.of("queen.s3.start", "tomorrow"))))
                .hasMessage("queen.s3.start='tomorrow' is not an accepted value: allowed latest (or now, end) or earliest"
                        + " (or beginning).");
        assertThatThrownBy(() -> orders().configure(Configuration.fromMap(Map.of("queen.s3.queues", "*,orders"))))
                .hasMessageStartingWith("queen.s3.queues='*,orders' mixes * with names");
        assertThatThrownBy(() -> orders().configure(Configuration.fromMap(Map.of("queen.s3.format", "parquet",
                "queen.s3.compression", "gzip"))))
                .hasMessage("queen.s3.compression='gzip' does not apply to queen.s3.format=parquet: set"
                        + " queen.s3.parquet-codec (zstd or snappy; Parquet only) instead, or remove it.");
        assertThatThrownBy(() -> orders().configure(Configuration.fromMap(Map.of("queen.s3.prefix", "a/../b"))))
                .hasMessageStartingWith("queen.s3.prefix='a/../b' is refused: the key prefix 'a/../b' has a '..'");
        assertThatThrownBy(() -> orders().configure(Configuration.fromMap(Map.of("queen.token", "Bearer hush"))))
                .hasMessage("queen.token=<hidden> contains spaces or control characters: allowed the bare token, with a"
                        + " read-write role.");
        assertThatThrownBy(() -> orders().configure(Configuration.fromMap(Map.of("queen.s3.max-window-ms", "420000")))
                .build()).as("a rule between options, at the build")
                .hasMessageStartingWith("queen.s3.max-window-ms=420000 does not divide one hour");
    }

    @Test
    void aMissingOrWrongSettingIsRefusedNamingIt() {
        assertThatThrownBy(() -> orders().lakeRoot(null).build()).hasMessageContaining("lake root is required");
        assertThatThrownBy(() -> orders().queues().build()).hasMessageContaining("queen.s3.queues is required");
        assertThatThrownBy(() -> orders().brokerUrl("queen:6632").build()).hasMessageContaining("queen.url");
        assertThatThrownBy(() -> orders().tenant("acme").build()).hasMessageContaining("queen.tenant");
        assertThatThrownBy(() -> orders().requestTimeout(Duration.ZERO).build())
                .hasMessageContaining("request timeout must be above zero");
        assertThatThrownBy(() -> orders().maxWindowMs(1).build()).hasMessageContaining("queen.s3.max-window-ms");
        assertThatThrownBy(() -> orders().tenant("acme").build()).as("the connector knows no application's variables")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("QUEEN_"));
    }
}
