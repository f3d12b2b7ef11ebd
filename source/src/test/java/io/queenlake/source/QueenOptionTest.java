package io.queenlake.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

/** One definition: Flink's key, type, default and description, and the check with its words. */
class QueenOptionTest {

    private static final Function<String, IllegalArgumentException> REFUSE = IllegalArgumentException::new;

    private static final QueenOption<Long> SIZE = QueenOption.longRange(ConfigOptions.key("queen.s3.x-ms").longType()
            .defaultValue(300L).withDescription("The size."), 100, 900);

    private static final QueenOption<Duration> MODE = QueenOption.choice(ConfigOptions.key("queen.s3.mode")
            .durationType().defaultValue(Duration.ofHours(1)).withDescription("The mode."), spellings(), "hour or day");

    private static Map<String, Duration> spellings() {
        Map<String, Duration> spellings = new LinkedHashMap<>();
        spellings.put("hour", Duration.ofHours(1));
        spellings.put("h", Duration.ofHours(1));
        spellings.put("day", Duration.ofDays(1));
        return spellings;
    }

    @Test
    void flinksOptionCarriesKeyTypeDefaultAndDescription() {
        assertThat(SIZE.option().key()).isEqualTo("queen.s3.x-ms");
        assertThat(SIZE.option().defaultValue()).isEqualTo(300L);
        assertThat(SIZE.defaultText()).isEqualTo("300");
        assertThat(SIZE.description()).isEqualTo("The size.");
        assertThat(SIZE.allowed()).isEqualTo("100..900");
        assertThat(MODE.defaultText()).as("a choice's first spelling").isEqualTo("hour");
        QueenOption<String> sse = QueenOption.choice(ConfigOptions.key("queen.s3.sse").stringType().defaultValue("AES256")
                .withDescription("SSE."), Map.of("AES256", "AES256"), "AES256");
        assertThat(sse.defaultText()).as("in its own case, though read in any").isEqualTo("AES256");
        assertThat(sse.parse("aes256", REFUSE)).isEqualTo("AES256");
    }

    @Test
    void eachReaderNamesItsProblemAndTheCallerNamesTheValue() {
        assertThat(SIZE.parse(" 100 ", REFUSE)).isEqualTo(100L);
        assertThatThrownBy(() -> SIZE.parse("1e3", REFUSE)).hasMessage("is not a whole number");
        assertThatThrownBy(() -> SIZE.parse("99", REFUSE)).hasMessage("is out of range");
        assertThat(MODE.parse("H", REFUSE)).isEqualTo(Duration.ofHours(1));
        assertThatThrownBy(() -> MODE.parse("week", REFUSE)).hasMessage("is not an accepted value");
        QueenOption<Boolean> flag = QueenOption.flag(ConfigOptions.key("queen.f").booleanType().defaultValue(false)
                .withDescription("A flag."));
        assertThat(flag.parse("on", REFUSE)).isTrue();
        assertThatThrownBy(() -> flag.parse("maybe", REFUSE)).hasMessage("is not a boolean");
        QueenOption<String> name = QueenOption.text(ConfigOptions.key("queen.n").stringType().noDefaultValue()
                .withDescription("A name."), Pattern.compile("[a-z]+"), "a-z");
        assertThatThrownBy(() -> name.parse("A", REFUSE)).hasMessage("is not valid");
    }

    @Test
    void aBuilderRefusalNamesTheFlinkKeyAndNeverEchoesASecret() {
        assertThat(SIZE.require(900L)).isEqualTo(900L);
        assertThatThrownBy(() -> SIZE.require(901L))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("queen.s3.x-ms=901 is out of range: allowed 100..900.");
        QueenOption<String> token = QueenOption.text(ConfigOptions.key("queen.t").stringType().noDefaultValue()
                .withDescription("A token."), t -> !t.contains(" "), "contains spaces", "the bare token").secret();
        assertThatThrownBy(() -> token.require("Bearer hush")).hasMessage("queen.t=<hidden> contains spaces: allowed"
                + " the bare token.");
    }

    @Test
    void aFlinkConfigurationIsReadInTheSameSpellingsTypedOrAsText() {
        Configuration conf = new Configuration();
        assertThat(SIZE.read(conf)).isEmpty();
        conf.setString("queen.s3.x-ms", " 450 ");
        assertThat(SIZE.read(conf)).contains(450L);
        conf.set(SIZE.option(), 500L);
        assertThat(SIZE.read(conf)).contains(500L);
        conf.setString("queen.s3.mode", "day");
        assertThat(MODE.read(conf)).contains(Duration.ofDays(1));
        conf.setString("queen.s3.x-ms", "5s");
        assertThatThrownBy(() -> SIZE.read(conf)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("queen.s3.x-ms='5s' is not a whole number: allowed 100..900.");
    }

    @Test
    void aDefinitionThatContradictsItselfIsNotBuilt() {
        assertThatThrownBy(() -> QueenOption.longRange(ConfigOptions.key("queen.x").longType().defaultValue(0L)
                .withDescription("d"), 1, 9))
                .hasMessage("queen.x's default '0' is out of range");
        assertThatThrownBy(() -> QueenOption.longRange(ConfigOptions.key("queen.x").longType().defaultValue(1L), 1, 9))
                .hasMessage("queen.x needs a description");
        assertThatThrownBy(() -> QueenOption.choice(ConfigOptions.key("queen.x").stringType().noDefaultValue()
                .withDescription("d"), Map.of(), "a"))
                .hasMessageContaining("a choice needs its spellings");
        assertThatThrownBy(() -> SIZE.required()).hasMessageContaining("has a default");
    }
}
