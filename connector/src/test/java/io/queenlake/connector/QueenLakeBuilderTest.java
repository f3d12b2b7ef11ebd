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
import io.queenlake.source.QueenSourceConfig;
import io.queenlake.source.StartMode;
import java.time.Duration;
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
