package io.queenlake.job.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The one reader of long options: both spellings of a value, bare flags, and each refusal in the caller's words. */
class LongOptionsTest {

    private static final Map<String, Boolean> KNOWN = Map.of("queue", false, "dry-run", true);

    private static final LongOptions.Refusals WORDS = new LongOptions.Refusals() {
        @Override
        public RuntimeException notAnOption(String arg) {
            return new IllegalArgumentException("not an option: " + arg);
        }

        @Override
        public RuntimeException unknown(String name) {
            return new IllegalArgumentException("unknown: " + name);
        }

        @Override
        public RuntimeException noValue(String name) {
            return new IllegalArgumentException("no value: " + name);
        }
    };

    private static List<LongOptions.Given> parse(String... args) {
        return LongOptions.parse(args, KNOWN::get, WORDS);
    }

    @Test
    void valuesComeAfterTheNameOrAfterAnEqualsSignAndABareFlagIsTrue() {
        assertThat(parse("--queue", "orders", "--dry-run", "--queue=a=b", "--dry-run=false")).containsExactly(
                new LongOptions.Given("queue", "orders"), new LongOptions.Given("dry-run", "true"),
                new LongOptions.Given("queue", "a=b"), new LongOptions.Given("dry-run", "false"));
        assertThat(new LongOptions.Given("queue", "a=b").asArgument()).isEqualTo("--queue=a=b");
    }

    @Test
    void everyRefusalIsTheCallersSentence() {
        assertThatThrownBy(() -> parse("orders")).hasMessage("not an option: orders");
        assertThatThrownBy(() -> parse("--")).hasMessage("not an option: --");
        assertThatThrownBy(() -> parse("--queues", "orders")).hasMessage("unknown: queues");
        assertThatThrownBy(() -> parse("--dry-run", "--queue")).hasMessage("no value: queue");
    }
}
