package io.queenlake.devstack.broker;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The answers' JSON writer: strings printed as serde_json prints them, stored bytes copied as they are. */
class AnswerJsonTest {

    @Test
    void stringsAreEscapedAsSerdeJsonEscapesThem() throws IOException {
        assertThat(string("plain / slash")).isEqualTo("\"plain / slash\"");
        assertThat(string("q\"b\\n\nt\tr\rb\bf\f")).isEqualTo("\"q\\\"b\\\\n\\nt\\tr\\rb\\bf\\f\"");
        assertThat(string("\u0000\u0001\u001f")).isEqualTo("\"\\u0000\\u0001\\u001f\"");
        assertThat(string("del\u007f caff\u00e8 \u20ac \ud83d\ude00")).isEqualTo("\"del\u007f caff\u00e8 \u20ac \ud83d\ude00\"");
    }

    @Test
    void aLoneSurrogateIsEscapedAndTakesNothingWithIt() throws IOException {
        assertThat(string("a\ud800x")).isEqualTo("\"a\\ud800x\"");
        assertThat(string("a\ud800")).isEqualTo("\"a\\ud800\"");
        assertThat(string("\udc00\ud83d\ude00\ud83d")).isEqualTo("\"\\udc00\ud83d\ude00\\ud83d\"");
    }

    @Test
    void longStringsKeepTheirPairsWhole() throws IOException {
        String text = "\u00e9\ud83d\ude00x".repeat(50_000);
        assertThat(string(text)).isEqualTo("\"" + text + "\"");
    }

    @Test
    void rawJsonIsCopiedAsItsBytesWhetherItFitsTheBufferOrNot() throws IOException {
        byte[] small = "{ \"a\" : 42.00 }".getBytes(StandardCharsets.UTF_8);
        byte[] large = ("\"" + "\u00e9".repeat(5_000) + "\"").getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator g = AnswerJson.FACTORY.over(new byte[1024], out)) {
            g.writeStartArray();
            g.writeRawValue(new StoredJson(small));
            g.writeRawValue(new StoredJson(large));
            g.writeRawValue(new StoredJson(small));
            g.writeEndArray();
        }
        String expected = "[" + new String(small, StandardCharsets.UTF_8) + "," + new String(large, StandardCharsets.UTF_8)
                + "," + new String(small, StandardCharsets.UTF_8) + "]";
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(expected);
    }

    @Test
    void aStampIsItsTwentySevenCharactersQuoted() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator g = AnswerJson.FACTORY.createGenerator(out)) {
            AnswerJson.stamp(g, ManualClock.START + 1);
        }
        assertThat(out.toString(StandardCharsets.US_ASCII)).isEqualTo("\"" + BrokerTime.iso(ManualClock.START + 1) + "\"");
    }

    private static String string(String text) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator g = AnswerJson.FACTORY.over(new byte[256 * 1024], out)) {
            g.writeString(text);
        }
        ByteArrayOutputStream small = new ByteArrayOutputStream();
        try (JsonGenerator g = AnswerJson.FACTORY.createGenerator(small)) {
            g.writeString(text);
        }
        assertThat(small.toString(StandardCharsets.UTF_8)).isEqualTo(out.toString(StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }
}
