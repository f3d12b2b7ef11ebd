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

    @Test
    void anEscapeAtAnyPlaceInAnEightByteWordIsWritten() {
        for (int at = 0; at <= 17; at++) {
            String before = "x".repeat(at);
            String after = "y".repeat(17 - at);
            assertThat(JsonStringEscaper.quoteToString(before + "\"" + after)).isEqualTo("\"" + before + "\\\"" + after + "\"");
            assertThat(JsonStringEscaper.quoteToString(before + "\u0001" + after))
                    .isEqualTo("\"" + before + "\\u0001" + after + "\"");
            assertThat(JsonStringEscaper.quoteToString(before + "\u00e8\\" + after))
                    .isEqualTo("\"" + before + "\u00e8\\\\" + after + "\"");
        }
    }

    @Test
    void aLoneSurrogateIsAQuestionMarkAndAPairIsOneCharacter() {
        assertThat(JsonStringEscaper.quote("a\uD800b\uDC00c\uD800\uD83D\uDE00"))
                .containsExactly('"', 'a', '?', 'b', '?', 'c', '?', 0xF0, 0x9F, 0x98, 0x80, '"');
    }
}
