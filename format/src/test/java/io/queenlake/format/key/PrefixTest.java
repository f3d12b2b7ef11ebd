package io.queenlake.format.key;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PrefixTest {

    @Test
    void outerSlashesAreDropped() {
        assertThat(Prefix.of("/lake/queen/").value()).isEqualTo("lake/queen");
        assertThat(Prefix.of("queen").value()).isEqualTo("queen");
        assertThat(Prefix.DEFAULT.value()).isEqualTo("queen");
    }

    @Test
    void anEmptyPrefixIsRefused() {
        assertThatThrownBy(() -> Prefix.of("")).hasMessageContaining("empty");
        assertThatThrownBy(() -> Prefix.of("///")).hasMessageContaining("empty");
    }

    @Test
    void dotSegmentsAreRefused() {
        assertThatThrownBy(() -> Prefix.of("a/./b")).hasMessage(
                "the key prefix 'a/./b' has a '.' segment, which could alias another path: use a plain name.");
        assertThatThrownBy(() -> Prefix.of("../queen")).hasMessageContaining("'..' segment");
    }

    @Test
    void doubledSlashesAreRefused() {
        assertThatThrownBy(() -> Prefix.of("a//b")).hasMessage(
                "the key prefix 'a//b' contains '//' (an empty segment): remove the doubled slash.");
    }

    @Test
    void hashQuestionMarkBackslashAndControlsAreRefused() {
        assertThatThrownBy(() -> Prefix.of("a#b")).hasMessageContaining("contains '#'");
        assertThatThrownBy(() -> Prefix.of("a?b")).hasMessageContaining("contains '?'");
        assertThatThrownBy(() -> Prefix.of("a\\b")).hasMessageContaining("contains '\\'");
        assertThatThrownBy(() -> Prefix.of("a\tb")).hasMessageContaining("control character (U+0009)");
        assertThatThrownBy(() -> Prefix.of("a\u007fb")).hasMessageContaining("control character (U+007F)");
    }

    @Test
    void dotsInsideANameAreFine() {
        assertThat(Prefix.of("my.lake/v1..2").value()).isEqualTo("my.lake/v1..2");
    }
}
