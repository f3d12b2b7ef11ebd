package io.queenlake.source;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.apache.flink.annotation.Internal;

/**
 * One setting, defined once: its variable (its job argument and Flink key follow from it), how its
 * text is read, its default, what it allows (a range, a set of spellings or a rule, and the same in
 * words), its description and whether it is secret. The source's own options are
 * {@link QueenSourceOptions}, which {@link QueenSourceBuilder} checks against; the job's settings
 * list holds them beside its own, and its validation, its start log line and the README's settings
 * table all read these definitions, so a range is written in one place.
 *
 * <p>The readers check a value's own shape and range and hand the problem ({@code "is out of
 * range"}) to the caller's {@code refuse}, which names where the value came from; checks between
 * settings are the caller's.
 */
@Internal
public final class SettingSpec {

    /** How a raw value is read. */
    public enum Kind {
        /** Text, passing the rule where there is one ({@link #text}). */
        TEXT,
        /** A list of queue names, which the job reads. */
        QUEUES,
        /** {@code true} or {@code false} ({@link #flag}). */
        FLAG,
        /** A whole number within the range ({@link #number}). */
        NUMBER,
        /** One of the accepted spellings, read as its canonical value ({@link #choice}). */
        CHOICE
    }

    private static final String S3_PREFIX = "QUEEN_S3_";
    /** queen-lake's own settings beyond the reference's (the Iceberg catalog): {@code queen.lake.*}. */
    private static final String LAKE_PREFIX = "QUEEN_LAKE_";

    private final String envName;
    private final Kind kind;
    private final String defaultValue;
    private final boolean required;
    private final boolean secret;
    private final long min;
    private final long max;
    private final Predicate<String> rule;
    private final String ruleProblem;
    private final Map<String, String> spellings;
    private final String allowed;
    private final String description;

    private SettingSpec(Builder b) {
        this.envName = b.envName;
        this.kind = b.kind;
        this.defaultValue = b.defaultValue;
        this.required = b.required;
        this.secret = b.secret;
        this.min = b.min;
        this.max = b.max;
        this.rule = b.rule;
        this.ruleProblem = b.ruleProblem;
        this.spellings = Map.copyOf(b.spellings);
        this.allowed = b.allowed;
        this.description = b.description;
    }

    /** Text, e.g. a bucket name; {@link Builder#pattern} or {@link Builder#rule} bounds it. */
    public static Builder text(String envName) {
        return new Builder(envName, Kind.TEXT);
    }

    public static Builder queues(String envName) {
        return new Builder(envName, Kind.QUEUES);
    }

    public static Builder flag(String envName) {
        return new Builder(envName, Kind.FLAG).allowed("true or false");
    }

    /** A whole number; {@link Builder#range} is required. */
    public static Builder number(String envName) {
        return new Builder(envName, Kind.NUMBER);
    }

    /** One of a set of spellings; {@link Builder#spellings} is required. */
    public static Builder choice(String envName) {
        return new Builder(envName, Kind.CHOICE);
    }

    /** The environment variable, e.g. {@code QUEEN_S3_QUEUES}. */
    public String envName() {
        return envName;
    }

    /** The job argument without dashes, e.g. {@code queues}, {@code queen-url}. */
    public String argName() {
        String tail = envName.startsWith(S3_PREFIX) ? envName.substring(S3_PREFIX.length())
                : envName.startsWith(LAKE_PREFIX) ? envName.substring(LAKE_PREFIX.length()) : envName;
        return tail.toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The Flink configuration key, e.g. {@code queen.s3.queues}, {@code queen.url}. */
    public String flinkKey() {
        String tail = envName.startsWith(S3_PREFIX) ? "s3." + envName.substring(S3_PREFIX.length())
                : envName.startsWith(LAKE_PREFIX) ? "lake." + envName.substring(LAKE_PREFIX.length())
                : envName.substring("QUEEN_".length());
        return "queen." + tail.toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public Kind kind() {
        return kind;
    }

    /** The default as text, or null when there is none. */
    public String defaultValue() {
        return defaultValue;
    }

    /** The default of a number setting. */
    public long defaultNumber() {
        return Long.parseLong(Objects.requireNonNull(defaultValue, envName + " has no default"));
    }

    public boolean required() {
        return required;
    }

    /** A secret is never logged nor echoed in a refusal. */
    public boolean secret() {
        return secret;
    }

    /** The smallest number allowed. */
    public long min() {
        return min;
    }

    /** The largest number allowed. */
    public long max() {
        return max;
    }

    /** What a valid value looks like, for messages and the README. */
    public String allowed() {
        return allowed;
    }

    public String description() {
        return description;
    }

    /** The value as a message may show it. */
    public String shown(String raw) {
        return secret ? "<hidden>" : "'" + raw + "'";
    }

    public boolean inRange(long value) {
        return value >= min && value <= max;
    }

    /** Whether {@code text} passes this setting's rule (any text does where there is none). */
    public boolean passes(String text) {
        return text != null && rule.test(text);
    }

    /** Reads a whole number within the range. */
    public long number(String raw, Function<String, ? extends RuntimeException> refuse) {
        long value;
        try {
            value = Long.parseLong(raw.strip());
        } catch (NumberFormatException e) {
            throw refuse.apply("is not a whole number");
        }
        if (!inRange(value)) {
            throw refuse.apply("is out of range");
        }
        return value;
    }

    /** Reads {@code true/false} (also {@code 1/0}, {@code yes/no}, {@code on/off}). */
    public boolean flag(String raw, Function<String, ? extends RuntimeException> refuse) {
        return switch (raw.strip().toLowerCase(Locale.ROOT)) {
            case "true", "1", "yes", "on" -> true;
            case "false", "0", "no", "off" -> false;
            default -> throw refuse.apply("is not a boolean");
        };
    }

    /** Reads one of the accepted spellings (in any case) and returns its canonical value. */
    public String choice(String raw, Function<String, ? extends RuntimeException> refuse) {
        String canonical = spellings.get(raw.strip().toLowerCase(Locale.ROOT));
        if (canonical == null) {
            throw refuse.apply("is not an accepted value");
        }
        return canonical;
    }

    /** Returns {@code raw} if it passes the rule. */
    public String text(String raw, Function<String, ? extends RuntimeException> refuse) {
        if (!passes(raw)) {
            throw refuse.apply(ruleProblem);
        }
        return raw;
    }

    /**
     * Refuses a number built in code (not read from text) outside the range, in the source
     * builder's words: {@code QUEEN_S3_FETCH_CONCURRENCY=257 is out of range: allowed 1..256}.
     */
    public void requireInRange(long value) {
        if (!inRange(value)) {
            throw new IllegalArgumentException(envName + "=" + value + " is out of range: allowed " + allowed);
        }
    }

    @Override
    public String toString() {
        return envName;
    }

    /** Names each part of a definition; {@link #build()} refuses one that contradicts itself. */
    public static final class Builder {

        private final String envName;
        private final Kind kind;
        private String defaultValue;
        private boolean required;
        private boolean secret;
        private long min = Long.MIN_VALUE;
        private long max = Long.MAX_VALUE;
        private Predicate<String> rule = text -> true;
        private String ruleProblem = "is not valid";
        private final Map<String, String> spellings = new LinkedHashMap<>();
        private String allowed;
        private String description;

        private Builder(String envName, Kind kind) {
            this.envName = Objects.requireNonNull(envName, "envName");
            this.kind = kind;
        }

        public Builder defaultValue(String value) {
            this.defaultValue = value;
            return this;
        }

        public Builder defaultValue(long value) {
            return defaultValue(Long.toString(value));
        }

        /** Refused when unset at every level. */
        public Builder required() {
            this.required = true;
            return this;
        }

        public Builder secret() {
            this.secret = true;
            return this;
        }

        /** The whole numbers allowed, {@code min..max} in words. */
        public Builder range(long min, long max) {
            this.min = min;
            this.max = max;
            this.allowed = min + ".." + max;
            return this;
        }

        /** The whole text must match; else the refusal says it "is not valid". */
        public Builder pattern(Pattern pattern) {
            return rule(text -> pattern.matcher(text).matches(), "is not valid");
        }

        /** The text must pass {@code rule}; else the refusal says {@code problem}. */
        public Builder rule(Predicate<String> rule, String problem) {
            this.rule = Objects.requireNonNull(rule, "rule");
            this.ruleProblem = Objects.requireNonNull(problem, "problem");
            return this;
        }

        /** Pairs of an accepted spelling and the canonical value it reads as. */
        public Builder spellings(String... pairs) {
            if (pairs.length % 2 != 0) {
                throw new IllegalArgumentException(envName + ": spellings come in pairs");
            }
            for (int i = 0; i < pairs.length; i += 2) {
                spellings.put(pairs[i].toLowerCase(Locale.ROOT), pairs[i + 1]);
            }
            return this;
        }

        /** The accepted spellings, each mapped to its canonical value, from the type that owns them. */
        public Builder spellings(Map<String, String> canonicalBySpelling) {
            canonicalBySpelling.forEach((spelling, canonical) -> spellings.put(spelling.toLowerCase(Locale.ROOT), canonical));
            return this;
        }

        /** What a valid value looks like, in words. */
        public Builder allowed(String allowed) {
            this.allowed = allowed;
            return this;
        }

        public Builder description(String description) {
            this.description = description;
            return this;
        }

        public SettingSpec build() {
            if (allowed == null || description == null) {
                throw new IllegalStateException(envName + " needs its allowed values and a description");
            }
            if ((kind == Kind.NUMBER) != (min != Long.MIN_VALUE || max != Long.MAX_VALUE)) {
                throw new IllegalStateException(envName + ": a range goes with a number, and a number needs one");
            }
            if ((kind == Kind.CHOICE) == spellings.isEmpty()) {
                throw new IllegalStateException(envName + ": spellings go with a choice, and a choice needs them");
            }
            SettingSpec spec = new SettingSpec(this);
            if (defaultValue != null) {
                spec.checkOwnDefault();
            }
            return spec;
        }
    }

    /** A definition whose default its own reader refuses is a mistake in the definition. */
    private void checkOwnDefault() {
        Function<String, IllegalStateException> refuse =
                problem -> new IllegalStateException(envName + "'s default '" + defaultValue + "' " + problem);
        switch (kind) {
            case NUMBER -> number(defaultValue, refuse);
            case FLAG -> flag(defaultValue, refuse);
            case CHOICE -> choice(defaultValue, refuse);
            case TEXT, QUEUES -> text(defaultValue, refuse);
        }
    }
}
