package io.queenlake.format.key;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NameEscapingTest {

    @Test
    void theDocumentedExamplesEscapeAsWritten() {
        assertThat(NameEscaping.escape("a/b")).isEqualTo("a%2Fb");
        assertThat(NameEscaping.escape("caff\u00e8")).isEqualTo("caff%C3%A8");
        assertThat(NameEscaping.escape("100%")).isEqualTo("100%25");
        assertThat(NameEscaping.escape(" ")).isEqualTo("%20");
        assertThat(NameEscaping.escape("@")).isEqualTo("%40");
        assertThat(NameEscaping.escape("..")).isEqualTo("..");
        assertThat(NameEscaping.escape("Az09._-")).isEqualTo("Az09._-");
        assertThat(NameEscaping.escape("=#?\\")).isEqualTo("%3D%23%3F%5C");
        assertThat(NameEscaping.escape("\uD83D\uDE00")).isEqualTo("%F0%9F%98%80");
    }

    @Test
    void unescapeInvertsEscape() {
        for (String name : new String[] {"a/b", "caff\u00e8", "100%", " x ", "@", "..", "\uD83D\uDE00", "\uFF5E", ""}) {
            assertThat(NameEscaping.unescape(NameEscaping.escape(name))).isEqualTo(name);
        }
    }

    @Test
    void unescapeToleratesStrayPercentsAndLowercaseHex() {
        assertThat(NameEscaping.unescape("100%")).isEqualTo("100%");
        assertThat(NameEscaping.unescape("a%2fb")).isEqualTo("a/b");
        assertThat(NameEscaping.unescape("%zz%4")).isEqualTo("%zz%4");
        assertThat(NameEscaping.unescape("%FF")).isEqualTo("\uFFFD");
    }
}
