package io.queenlake.devstack.broker;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.queenlake.format.jsonl.JsonStringEscaper;
import io.queenlake.format.jsonl.PayloadText;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/**
 * A stored payload as Queen's raft broker answers it over HTTP: {@code payload_json} parses the
 * stored text into a {@code serde_json::Value} and the answer prints that value again, with
 * serde_json's default features (no {@code preserve_order}, no {@code arbitrary_precision}):
 * <ul>
 *   <li>no whitespace; object keys sorted by their UTF-8 bytes, a repeated key keeping its last value;
 *   <li>an integer that fits u64 (or, negative, i64) printed in decimal; every other number parsed as
 *       an f64 and printed shortest-round-trip as Rust's {@code ryu} does ({@code 42.00} is
 *       {@code 42.0}, {@code 1e20} is {@code 1e20}, {@code -0} is {@code -0.0});
 *   <li>strings re-escaped as serde_json escapes them ({@code \u00e9} becomes the raw character);
 *   <li>a text serde_json cannot hold as a value (a number beyond f64 such as {@code 1E+400}, an
 *       escaped lone surrogate, nesting deeper than 127) answered as a JSON string of its text,
 *       as {@code payload_json} answers a parse failure.
 * </ul>
 * Floats are parsed correctly rounded (serde_json's {@code float_roundtrip}); its default parser
 * may differ in the last digit for rare inputs.
 */
final class RenderedPayload {

    private static final int RECURSION_LIMIT = 128;

    private RenderedPayload() {}

    /** The answer's rendering of a stored payload (never empty: the broker stores JSON texts only). */
    static byte[] of(byte[] stored) {
        StringBuilder out = new StringBuilder(stored.length);
        try (JsonParser p = WireJson.FACTORY.createParser(stored)) {
            p.nextToken();
            value(p, out, RECURSION_LIMIT);
            if (p.nextToken() != null) {
                return PayloadText.asJsonString(stored);
            }
        } catch (IOException | Unrepresentable e) {
            return PayloadText.asJsonString(stored);
        }
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static final class Unrepresentable extends RuntimeException {
        Unrepresentable() {
            super(null, null, false, false);
        }
    }

    private static void value(JsonParser p, StringBuilder out, int depthLeft) throws IOException {
        JsonToken t = p.currentToken();
        switch (t) {
            case START_OBJECT -> {
                checkDepth(depthLeft);
                Map<String, String> members = new TreeMap<>(KvStore.UTF8_ORDER); // Rust String order
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String key = checked(p.currentName());
                    p.nextToken();
                    StringBuilder v = new StringBuilder();
                    value(p, v, depthLeft - 1);
                    members.put(key, v.toString());
                }
                out.append('{');
                boolean first = true;
                for (Map.Entry<String, String> m : members.entrySet()) {
                    if (!first) {
                        out.append(',');
                    }
                    first = false;
                    out.append(JsonStringEscaper.quoteToString(m.getKey())).append(':').append(m.getValue());
                }
                out.append('}');
            }
            case START_ARRAY -> {
                checkDepth(depthLeft);
                out.append('[');
                boolean first = true;
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    if (!first) {
                        out.append(',');
                    }
                    first = false;
                    value(p, out, depthLeft - 1);
                }
                out.append(']');
            }
            case VALUE_STRING -> out.append(JsonStringEscaper.quoteToString(checked(p.getText())));
            case VALUE_NUMBER_INT -> integer(p.getBigIntegerValue(), p.getText(), out);
            case VALUE_NUMBER_FLOAT -> out.append(f64(Double.parseDouble(p.getText())));
            case VALUE_TRUE -> out.append("true");
            case VALUE_FALSE -> out.append("false");
            case VALUE_NULL -> out.append("null");
            default -> throw new Unrepresentable();
        }
    }

    private static void checkDepth(int depthLeft) {
        if (depthLeft - 1 == 0) {
            throw new Unrepresentable(); // serde_json: recursion limit exceeded
        }
    }

    /** serde_json refuses an escaped lone surrogate when it builds a String. */
    private static String checked(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new Unrepresentable();
            }
        }
        return s;
    }

    private static final BigInteger U64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
    private static final BigInteger I64_MIN = BigInteger.valueOf(Long.MIN_VALUE);

    private static void integer(BigInteger v, String text, StringBuilder out) {
        if (v.signum() > 0 && v.compareTo(U64_MAX) <= 0 || v.signum() == 0 && !text.startsWith("-")) {
            out.append(v);
        } else if (v.signum() < 0 && v.compareTo(I64_MIN) >= 0) {
            out.append(v);
        } else {
            out.append(f64(Double.parseDouble(text))); // -0 and out-of-range integers become floats
        }
    }

    /** An f64 as serde_json prints it (ryu's shortest round trip, serde's layout). */
    static String f64(double d) {
        if (Double.isInfinite(d) || Double.isNaN(d)) {
            throw new Unrepresentable(); // serde_json: number out of range
        }
        if (d == 0) {
            return (1 / d < 0) ? "-0.0" : "0.0";
        }
        BigDecimal shortest = shortest(d);
        BigInteger unscaled = shortest.unscaledValue().abs();
        String digits = unscaled.toString();
        int exp = -shortest.scale(); // value = digits x 10^exp
        int length = digits.length();
        int kk = length + exp; // where the decimal point goes
        StringBuilder s = new StringBuilder(24);
        if (d < 0) {
            s.append('-');
        }
        if (exp >= 0 && kk <= 16) {
            s.append(digits).append("0".repeat(exp)).append(".0");
        } else if (kk > 0 && kk <= 16) {
            s.append(digits, 0, kk).append('.').append(digits, kk, length);
        } else if (kk > -5 && kk <= 0) {
            s.append("0.").append("0".repeat(-kk)).append(digits);
        } else if (length == 1) {
            s.append(digits).append('e').append(kk - 1);
        } else {
            s.append(digits, 0, 1).append('.').append(digits, 1, length).append('e').append(kk - 1);
        }
        return s.toString();
    }

    private static BigDecimal shortest(double d) {
        BigDecimal exact = new BigDecimal(d);
        for (int precision = 1; precision < 17; precision++) {
            BigDecimal r = exact.round(new MathContext(precision, RoundingMode.HALF_EVEN));
            if (r.doubleValue() == d) {
                return r.stripTrailingZeros();
            }
        }
        return exact.round(new MathContext(17, RoundingMode.HALF_EVEN)).stripTrailingZeros();
    }
}
