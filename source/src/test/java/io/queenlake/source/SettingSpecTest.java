package io.queenlake.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.function.Function;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class SettingSpecTest {

    private static final Function<String, IllegalArgumentException> REFUSE = IllegalArgumentException::new;

    @Test
    void aVariableGivesItsJobArgumentAndFlinkKey() {
        assertThat(QueenSourceOptions.MAX_WINDOW_MS.argName()).isEqualTo("max-window-ms");
        assertThat(QueenSourceOptions.MAX_WINDOW_MS.flinkKey()).isEqualTo("queen.s3.max-window-ms");
        assertThat(QueenSourceOptions.QUEEN_URL.argName()).isEqualTo("queen-url");
        assertThat(QueenSourceOptions.QUEEN_URL.flinkKey()).isEqualTo("queen.url");
    }

    @Test
    void eachReaderNamesItsProblem() {
        SettingSpec size = QueenSourceOptions.MAX_WINDOW_MS;
        assertThat(size.number(" 100 ", REFUSE)).isEqualTo(100);
        assertThatThrownBy(() -> size.number("1e3", REFUSE)).hasMessage("is not a whole number");
        assertThatThrownBy(() -> size.number("99", REFUSE)).hasMessage("is out of range");
        assertThat(size.allowed()).isEqualTo(size.min() + ".." + size.max());

        assertThat(QueenSourceOptions.START.choice("NOW", REFUSE)).isEqualTo("latest");
        assertThatThrownBy(() -> QueenSourceOptions.START.choice("soon", REFUSE)).hasMessage("is not an accepted value");
        assertThatThrownBy(() -> QueenSourceOptions.SINK.text("a:b", REFUSE)).hasMessage("is not valid");
        assertThatThrownBy(() -> QueenSourceOptions.INSTANCE.text("x".repeat(129), REFUSE))
                .hasMessage("is too long or has control characters");
        assertThat(QueenSourceOptions.QUEEN_TOKEN.shown("t0k3n")).isEqualTo("<hidden>");
    }

    @Test
    void aDefinitionThatContradictsItselfIsNotBuilt() {
        assertThatThrownBy(() -> SettingSpec.number("QUEEN_S3_X").defaultValue(0).range(1, 9).description("d").build())
                .hasMessage("QUEEN_S3_X's default '0' is out of range");
        assertThatThrownBy(() -> SettingSpec.number("QUEEN_S3_X").allowed("any").description("d").build())
                .hasMessageContaining("a number needs one");
        assertThatThrownBy(() -> SettingSpec.choice("QUEEN_S3_X").allowed("a").description("d").build())
                .hasMessageContaining("a choice needs them");
        assertThatThrownBy(() -> SettingSpec.text("QUEEN_S3_X").defaultValue("A").pattern(Pattern.compile("[a-z]+"))
                .allowed("a-z").description("d").build())
                .hasMessage("QUEEN_S3_X's default 'A' is not valid");
        assertThatThrownBy(() -> SettingSpec.text("QUEEN_S3_X").allowed("a-z").build())
                .hasMessageContaining("a description");
    }
}
