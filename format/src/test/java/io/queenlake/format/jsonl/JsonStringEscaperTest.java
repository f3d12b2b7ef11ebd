package io.queenlake.format.jsonl;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JsonStringEscaperTest {

    @Test
    void quotesLikeSerdeJson() {
        assertThat(JsonStringEscaper.quoteToString("a\"b\\c/d\b\f\n\r\t\u0000\u001f\u007f\u00e8"))
                .isEqualTo("\"a\\\"b\\\\c/d\\b\\f\\n\\r\\t\\u0000\\u001f\u007f\u00e8\"");
    }

    @Test
    void supplementaryCharactersAreFourUtf8Bytes() {
        assertThat(JsonStringEscaper.quote("\uD83D\uDE00"))
                .containsExactly('"', 0xF0, 0x9F, 0x98, 0x80, '"');
    }

    @Test
    void longStringsFullOfEscapesDoNotOverflowTheBuffer() {
        String s = "\u0001".repeat(5000) + "\u00e8".repeat(5000);
        String q = JsonStringEscaper.quoteToString(s);
        assertThat(q).isEqualTo("\"" + "\\u0001".repeat(5000) + "\u00e8".repeat(5000) + "\"");
    }
}
