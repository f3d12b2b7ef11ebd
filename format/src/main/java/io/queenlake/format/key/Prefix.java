package io.queenlake.format.key;

/**
 * The validated key prefix every lake key starts with ({@code queen} by default). Outer slashes
 * are dropped; anything that could make two prefixes alias or a key leave its tree is refused at
 * startup with one sentence naming the problem.
 */
public record Prefix(String value) {

    public static final Prefix DEFAULT = new Prefix("queen");

    public Prefix {
        String problem = problemWith(value);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
    }

    /** Validates {@code raw} after dropping leading and trailing slashes. */
    public static Prefix of(String raw) {
        if (raw == null) {
            throw new IllegalArgumentException("the key prefix must be set (the default is 'queen').");
        }
        int start = 0;
        int end = raw.length();
        while (start < end && raw.charAt(start) == '/') {
            start++;
        }
        while (end > start && raw.charAt(end - 1) == '/') {
            end--;
        }
        String trimmed = raw.substring(start, end);
        if (trimmed.isEmpty()) {
            throw new IllegalArgumentException("the key prefix '" + raw
                    + "' is empty once its outer slashes are dropped: set a name such as 'queen'.");
        }
        if (trimmed.contains("//")) {
            throw new IllegalArgumentException("the key prefix '" + raw
                    + "' contains '//' (an empty segment): remove the doubled slash.");
        }
        return new Prefix(trimmed);
    }

    private static String problemWith(String v) {
        if (v == null || v.isEmpty()) {
            return "the key prefix must not be empty: set a name such as 'queen'.";
        }
        if (v.startsWith("/") || v.endsWith("/")) {
            return "the key prefix '" + v + "' must not start or end with '/': use Prefix.of to drop them.";
        }
        if (v.contains("//")) {
            return "the key prefix '" + v + "' contains '//' (an empty segment): remove the doubled slash.";
        }
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c < 0x20 || c == 0x7F || (c >= 0x80 && c < 0xA0)) {
                return "the key prefix '" + v.replaceAll("\\p{Cntrl}", "?") + "' contains a control character (U+"
                        + String.format("%04X", (int) c) + ") at position " + i + ": remove it.";
            }
            if (c == '#' || c == '?' || c == '\\') {
                return "the key prefix '" + v + "' contains '" + c + "', which S3 tools misread in keys: remove it.";
            }
        }
        for (String segment : v.split("/", -1)) {
            if (segment.equals(".") || segment.equals("..")) {
                return "the key prefix '" + v + "' has a '" + segment
                        + "' segment, which could alias another path: use a plain name.";
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return value;
    }
}
