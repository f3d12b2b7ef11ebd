package io.queenlake.format.model;

/**
 * Broker time: microseconds since the epoch, UTC. Owns the one text form of a stamp in the lake,
 * {@code YYYY-MM-DDTHH:MM:SS.ffffffZ}, and its tolerant parser. Calendar parts are computed
 * arithmetically (proleptic Gregorian, days-from-civil), so rendering never touches java.time.
 */
public final class Micros {

    public static final long PER_SECOND = 1_000_000L;
    public static final long PER_HOUR = 3_600L * PER_SECOND;
    public static final long PER_DAY = 24L * PER_HOUR;

    /** Length of {@link #render} output for years 0000..9999. */
    public static final int ISO_LENGTH = 27;

    private Micros() {}

    /** The date and time parts of a stamp, in UTC. */
    public record Parts(int year, int month, int day, int hour, int minute, int second, int micros) {}

    public static Parts parts(long micros) {
        long days = Math.floorDiv(micros, PER_DAY);
        long inDay = Math.floorMod(micros, PER_DAY);
        long[] ymd = civilFromDays(days);
        int secOfDay = (int) (inDay / PER_SECOND);
        return new Parts((int) ymd[0], (int) ymd[1], (int) ymd[2],
                secOfDay / 3600, secOfDay / 60 % 60, secOfDay % 60, (int) (inDay % PER_SECOND));
    }

    /** {@code YYYY-MM-DDTHH:MM:SS.ffffffZ}, always six fractional digits. */
    public static String render(long micros) {
        byte[] out = new byte[ISO_LENGTH + 8];
        int n = renderSecondPrefix(Math.floorDiv(micros, PER_SECOND), out, 0);
        n = writeFraction((int) Math.floorMod(micros, PER_SECOND), out, n);
        return new String(out, 0, n, java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    /**
     * Writes {@code YYYY-MM-DDTHH:MM:SS.} (the part shared by every stamp of one second) at
     * {@code pos} and returns the position after it.
     */
    public static int renderSecondPrefix(long epochSecond, byte[] out, int pos) {
        long days = Math.floorDiv(epochSecond, 86_400L);
        int secOfDay = (int) Math.floorMod(epochSecond, 86_400L);
        long[] ymd = civilFromDays(days);
        long year = ymd[0];
        if (year < 0 || year > 9999) {
            throw new IllegalArgumentException("stamp second " + epochSecond + " is outside years 0000..9999");
        }
        pos = digits(year, 4, out, pos);
        out[pos++] = '-';
        pos = digits(ymd[1], 2, out, pos);
        out[pos++] = '-';
        pos = digits(ymd[2], 2, out, pos);
        out[pos++] = 'T';
        pos = digits(secOfDay / 3600, 2, out, pos);
        out[pos++] = ':';
        pos = digits(secOfDay / 60 % 60, 2, out, pos);
        out[pos++] = ':';
        pos = digits(secOfDay % 60, 2, out, pos);
        out[pos++] = '.';
        return pos;
    }

    /** Writes six fractional digits and {@code Z}. */
    public static int writeFraction(int microsOfSecond, byte[] out, int pos) {
        pos = digits(microsOfSecond, 6, out, pos);
        out[pos++] = 'Z';
        return pos;
    }

    private static int digits(long value, int width, byte[] out, int pos) {
        for (int i = pos + width - 1; i >= pos; i--) {
            out[i] = (byte) ('0' + value % 10);
            value /= 10;
        }
        return pos + width;
    }

    /**
     * Parses {@code YYYY-MM-DDTHH:MM:SS[.f{1,6}](Z|+00:00)}, the forms the reference and the broker
     * write. Anything else (another offset, more than six digits, a missing part) is refused.
     */
    public static long parse(String text) {
        String s = text.strip();
        try {
            if (s.length() < 20 || s.charAt(4) != '-' || s.charAt(7) != '-' || s.charAt(10) != 'T'
                    || s.charAt(13) != ':' || s.charAt(16) != ':') {
                throw new NumberFormatException();
            }
            int year = Integer.parseInt(s.substring(0, 4));
            int month = Integer.parseInt(s.substring(5, 7));
            int day = Integer.parseInt(s.substring(8, 10));
            int hour = Integer.parseInt(s.substring(11, 13));
            int minute = Integer.parseInt(s.substring(14, 16));
            int second = Integer.parseInt(s.substring(17, 19));
            int i = 19;
            int fraction = 0;
            if (s.charAt(i) == '.') {
                int start = ++i;
                while (i < s.length() && Character.isDigit(s.charAt(i))) {
                    i++;
                }
                int n = i - start;
                if (n < 1 || n > 6) {
                    throw new NumberFormatException();
                }
                fraction = Integer.parseInt(s.substring(start, i));
                for (int k = n; k < 6; k++) {
                    fraction *= 10;
                }
            }
            String zone = s.substring(i);
            if (!zone.equals("Z") && !zone.equals("+00:00")) {
                throw new NumberFormatException();
            }
            if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23
                    || minute > 59 || second > 59) {
                throw new NumberFormatException();
            }
            long days = daysFromCivil(year, month, day);
            return days * PER_DAY + (hour * 3600L + minute * 60L + second) * PER_SECOND + fraction;
        } catch (NumberFormatException | IndexOutOfBoundsException e) {
            throw new IllegalArgumentException("'" + text
                    + "' is not a UTC stamp of the form YYYY-MM-DDTHH:MM:SS.ffffffZ (or +00:00)");
        }
    }

    /** The start of the UTC hour holding {@code micros}. */
    public static long hourFloor(long micros) {
        return Math.floorDiv(micros, PER_HOUR) * PER_HOUR;
    }

    /** The start of the UTC day holding {@code micros}. */
    public static long dayFloor(long micros) {
        return Math.floorDiv(micros, PER_DAY) * PER_DAY;
    }

    private static int daysInMonth(int year, int month) {
        return switch (month) {
            case 2 -> (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
    }

    // Howard Hinnant's civil_from_days / days_from_civil.
    static long[] civilFromDays(long z) {
        z += 719_468;
        long era = Math.floorDiv(z, 146_097);
        long doe = z - era * 146_097;
        long yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        long y = yoe + era * 400;
        long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        long mp = (5 * doy + 2) / 153;
        long d = doy - (153 * mp + 2) / 5 + 1;
        long m = mp < 10 ? mp + 3 : mp - 9;
        return new long[] {m <= 2 ? y + 1 : y, m, d};
    }

    static long daysFromCivil(long y, long m, long d) {
        y -= m <= 2 ? 1 : 0;
        long era = Math.floorDiv(y, 400);
        long yoe = y - era * 400;
        long doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
        long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        return era * 146_097 + doe - 719_468;
    }
}
