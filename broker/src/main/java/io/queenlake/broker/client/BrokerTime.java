package io.queenlake.broker.client;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * The broker's ISO timestamps as long microseconds since the epoch (UTC).
 *
 * <p>The broker renders stamps as {@code YYYY-MM-DDTHH:MM:SS.ffffffZ}; KV {@code expiresAt} /
 * {@code updatedAt} may come as {@code ...+00:00}. The common 27-character form is parsed by hand
 * because fetch answers carry one per record; anything else goes through {@code java.time}.
 */
final class BrokerTime {

    private static final DateTimeFormatter RENDER =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

    private BrokerTime() {}

    static long parseMicros(String text) {
        return parseMicros(text.toCharArray(), 0, text.length());
    }

    /** Parses {@code len} characters at {@code off}; throws {@link IllegalArgumentException} naming the text. */
    static long parseMicros(char[] chars, int off, int len) {
        if (len == 27 && chars[off + 26] == 'Z' && chars[off + 19] == '.') {
            long fast = parseCanonical(chars, off);
            if (fast != Long.MIN_VALUE) {
                return fast;
            }
        }
        String text = new String(chars, off, len);
        try {
            Instant at = OffsetDateTime.parse(text, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
            return Math.addExact(Math.multiplyExact(at.getEpochSecond(), 1_000_000L), at.getNano() / 1_000);
        } catch (DateTimeParseException | ArithmeticException e) {
            throw new IllegalArgumentException("'" + text + "' is not a broker timestamp (YYYY-MM-DDTHH:MM:SS.ffffffZ)", e);
        }
    }

    /** Renders micros the way the broker does: six fractional digits and {@code Z}. */
    static String render(long micros) {
        long seconds = Math.floorDiv(micros, 1_000_000L);
        long nanos = Math.floorMod(micros, 1_000_000L) * 1_000L;
        return RENDER.format(Instant.ofEpochSecond(seconds, nanos));
    }

    /** Returns Long.MIN_VALUE when the text is not exactly the canonical shape. */
    private static long parseCanonical(char[] c, int o) {
        if (c[o + 4] != '-' || c[o + 7] != '-' || c[o + 10] != 'T' || c[o + 13] != ':' || c[o + 16] != ':') {
            return Long.MIN_VALUE;
        }
        int year = digits(c, o, 4);
        int month = digits(c, o + 5, 2);
        int day = digits(c, o + 8, 2);
        int hour = digits(c, o + 11, 2);
        int minute = digits(c, o + 14, 2);
        int second = digits(c, o + 17, 2);
        int micros = digits(c, o + 20, 6);
        if (year < 0 || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59
                || second > 59 || micros < 0 || hour < 0 || minute < 0 || second < 0
                || day > lengthOfMonth(year, month)) {
            return Long.MIN_VALUE;
        }
        long days = daysFromCivil(year, month, day);
        return ((days * 86_400L + hour * 3_600L + minute * 60L + second) * 1_000_000L) + micros;
    }

    private static int digits(char[] c, int from, int count) {
        int value = 0;
        for (int i = from; i < from + count; i++) {
            int d = c[i] - '0';
            if (d < 0 || d > 9) {
                return -1;
            }
            value = value * 10 + d;
        }
        return value;
    }

    private static int lengthOfMonth(int year, int month) {
        boolean leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
        return switch (month) {
            case 2 -> leap ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
    }

    /** Howard Hinnant's days_from_civil: days since 1970-01-01 of a proleptic Gregorian date. */
    private static long daysFromCivil(int y, int m, int d) {
        y -= m <= 2 ? 1 : 0;
        long era = Math.floorDiv(y, 400);
        long yoe = y - era * 400;
        long doy = (153L * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
        long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        return era * 146_097 + doe - 719_468;
    }
}
