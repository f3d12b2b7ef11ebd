package io.queenlake.devstack.broker;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/**
 * The broker's time renderings: stamps as {@code YYYY-MM-DDTHH:MM:SS.ffffffZ}, KV times as
 * {@code ...ffffff+00:00} (as [raft] renders them), and the ISO parsing of request times.
 * Rendering is hand-rolled because a fetch renders one stamp per record.
 */
final class BrokerTime {

    static final int ISO_LENGTH = 27;

    private BrokerTime() {}

    /** Writes the 27 bytes of {@code micros} as {@code YYYY-MM-DDTHH:MM:SS.ffffffZ} at {@code pos}. */
    static void renderIso(long micros, byte[] dst, int pos) {
        long seconds = Math.floorDiv(micros, 1_000_000L);
        int fraction = (int) Math.floorMod(micros, 1_000_000L);
        long days = Math.floorDiv(seconds, 86_400L);
        int secondOfDay = (int) Math.floorMod(seconds, 86_400L);
        // Civil-from-days (H. Hinnant), valid for the proleptic Gregorian calendar.
        long z = days + 719_468;
        long era = Math.floorDiv(z, 146_097);
        long doe = z - era * 146_097;
        long yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        long mp = (5 * doy + 2) / 153;
        int day = (int) (doy - (153 * mp + 2) / 5 + 1);
        int month = (int) (mp < 10 ? mp + 3 : mp - 9);
        int year = (int) (yoe + era * 400 + (month <= 2 ? 1 : 0));
        digits(dst, pos, year, 4);
        dst[pos + 4] = '-';
        digits(dst, pos + 5, month, 2);
        dst[pos + 7] = '-';
        digits(dst, pos + 8, day, 2);
        dst[pos + 10] = 'T';
        digits(dst, pos + 11, secondOfDay / 3600, 2);
        dst[pos + 13] = ':';
        digits(dst, pos + 14, secondOfDay / 60 % 60, 2);
        dst[pos + 16] = ':';
        digits(dst, pos + 17, secondOfDay % 60, 2);
        dst[pos + 19] = '.';
        digits(dst, pos + 20, fraction, 6);
        dst[pos + 26] = 'Z';
    }

    static String iso(long micros) {
        byte[] b = new byte[ISO_LENGTH];
        renderIso(micros, b, 0);
        return new String(b, StandardCharsets.US_ASCII);
    }

    /** The KV rendering of [raft]: six digits and {@code +00:00} instead of {@code Z}. */
    static String isoOffset(long micros) {
        String z = iso(micros);
        return z.substring(0, z.length() - 1) + "+00:00";
    }

    /** Parses an ISO-8601 instant with {@code Z} or an offset and up to nine fraction digits. */
    static long parseMicros(String text) throws DateTimeParseException {
        Instant instant;
        try {
            instant = Instant.parse(text);
        } catch (DateTimeParseException notZ) {
            instant = OffsetDateTime.parse(text).toInstant();
        }
        return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1_000);
    }

    private static void digits(byte[] dst, int pos, int value, int width) {
        for (int i = width - 1; i >= 0; i--) {
            dst[pos + i] = (byte) ('0' + value % 10);
            value /= 10;
        }
    }
}
