package io.queenlake.devstack.broker;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.io.IOContext;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.core.json.UTF8JsonGenerator;
import java.io.IOException;
import java.io.OutputStream;

/**
 * The one JSON writer of the dev broker's answers: Jackson's UTF-8 generator, set to print strings as
 * the raft broker's serde_json prints them (a control character escaped in lowercase hex, a character
 * beyond the BMP as its four UTF-8 bytes, not as an escaped surrogate pair). Stored JSON
 * (payloads, KV values, records rendered at append time) goes in as its bytes through {@link StoredJson}.
 * It extends the factory only for {@link #over}: a generator over a caller's buffer needs its context.
 */
final class AnswerJson extends JsonFactory {

    private static final long serialVersionUID = 1L;

    static final AnswerJson FACTORY = new AnswerJson();

    private AnswerJson() {
        super(new JsonFactoryBuilder()
                .disable(JsonWriteFeature.WRITE_HEX_UPPER_CASE)
                .enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8)
                .disable(StreamWriteFeature.AUTO_CLOSE_TARGET));
    }

    /**
     * A generator rendering into {@code buffer} itself, which it hands to {@code out} whenever it fills
     * and once more when closed: an answer's bytes are copied into the serving thread's buffer once.
     */
    JsonGenerator over(byte[] buffer, OutputStream out) {
        IOContext ctxt = _createContext(_createContentReference(out), false);
        return new UTF8JsonGenerator(ctxt, _generatorFeatures, null, out, '"', buffer, 0, false);
    }

    /** A stamp as the 27 bytes of {@code YYYY-MM-DDTHH:MM:SS.ffffffZ}, quoted; nothing in it needs escaping. */
    static void stamp(JsonGenerator g, long micros) throws IOException {
        byte[] iso = new byte[BrokerTime.ISO_LENGTH];
        BrokerTime.renderIso(micros, iso, 0);
        g.writeRawUTF8String(iso, 0, iso.length);
    }
}
