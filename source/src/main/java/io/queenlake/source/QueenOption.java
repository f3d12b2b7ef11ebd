package io.queenlake.source;

import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.configuration.description.Formatter;
import org.apache.flink.configuration.description.TextElement;

/**
 * One option of the connector, defined once: Flink's {@link ConfigOption} (key, type, default,
 * description), as Kafka's connector declares its {@code KafkaSourceOptions}, paired with what a
 * Flink option does not carry: the check of a value (a range, the accepted spellings, a rule), the
 * same in words ({@link #allowed()}), and whether it is secret or required.
 *
 * <p>Builders check what they are given with {@link #require}, whose refusal names the Flink key;
 * {@link #read} reads a Flink configuration. An application that takes the value from elsewhere
 * (an environment variable, a job argument) reads its text with {@link #parse} and names the value
 * its own way: the problem ({@code "is out of range"}) is handed to its {@code refuse}.
 *
 * @param <T> the option's Flink type
 */
@PublicEvolving
public final class QueenOption<T> {

    /** Reads a value's text, or says what is wrong with it. */
    @FunctionalInterface
    private interface Reading<T> {
        T read(String text) throws Refused;
    }

    /** A text that does not read, and why ({@code "is not a whole number"}). */
    private static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;

        Refused(String problem) {
            super(problem, null, false, false);
        }
    }

    private final ConfigOption<T> option;
    private final ConfigOption<String> asText;
    private final Reading<T> reading;
    private final Function<T, String> check;
    private final Function<T, String> text;
    private final String allowed;
    private final boolean secret;
    private final boolean required;

    private QueenOption(ConfigOption<T> option, Reading<T> reading, Function<T, String> check,
            Function<T, String> text, String allowed, boolean secret, boolean required) {
        this.option = Objects.requireNonNull(option, "option");
        this.asText = ConfigOptions.key(option.key()).stringType().noDefaultValue();
        this.reading = reading;
        this.check = check;
        this.text = text;
        this.allowed = Objects.requireNonNull(allowed, "allowed");
        this.secret = secret;
        this.required = required;
        if (PlainText.of(option).isEmpty()) {
            throw new IllegalStateException(option.key() + " needs a description");
        }
        if (option.hasDefaultValue() && check.apply(option.defaultValue()) != null) {
            // A definition whose default its own check refuses is a mistake in the definition.
            throw new IllegalStateException(option.key() + "'s default '" + text.apply(option.defaultValue()) + "' "
                    + check.apply(option.defaultValue()));
        }
    }

    /** A whole number of {@code min..max}. */
    public static QueenOption<Long> longRange(ConfigOption<Long> option, long min, long max) {
        Function<Long, String> check = v -> v == null ? "is missing" : v < min || v > max ? "is out of range" : null;
        return new QueenOption<>(option, text -> wholeNumber(text, min, max), check, String::valueOf,
                min + ".." + max, false, false);
    }

    /** A whole number of {@code min..max}, as an {@code int}. */
    public static QueenOption<Integer> intRange(ConfigOption<Integer> option, int min, int max) {
        Function<Integer, String> check = v -> v == null ? "is missing" : v < min || v > max ? "is out of range" : null;
        return new QueenOption<>(option, text -> (int) wholeNumber(text, min, max), check, String::valueOf,
                min + ".." + max, false, false);
    }

    /** {@code true} or {@code false}; the text may also say {@code 1/0}, {@code yes/no}, {@code on/off}. */
    public static QueenOption<Boolean> flag(ConfigOption<Boolean> option) {
        Reading<Boolean> reading = text -> switch (text.strip().toLowerCase(Locale.ROOT)) {
            case "true", "1", "yes", "on" -> true;
            case "false", "0", "no", "off" -> false;
            default -> throw new Refused("is not a boolean");
        };
        return new QueenOption<>(option, reading, v -> v == null ? "is missing" : null, String::valueOf,
                "true or false", false, false);
    }

    /**
     * One of {@code spellings} (read in any case), each naming its value; a value's text is its first
     * spelling, so put the canonical one first.
     */
    public static <T> QueenOption<T> choice(ConfigOption<T> option, Map<String, T> spellings, String allowed) {
        Map<String, T> byText = new LinkedHashMap<>();
        Map<T, String> canonical = new LinkedHashMap<>();
        spellings.forEach((spelling, value) -> {
            byText.put(spelling.toLowerCase(Locale.ROOT), Objects.requireNonNull(value));
            canonical.putIfAbsent(value, spelling);
        });
        if (byText.isEmpty()) {
            throw new IllegalStateException(option.key() + ": a choice needs its spellings");
        }
        Reading<T> reading = text -> {
            T value = byText.get(text.strip().toLowerCase(Locale.ROOT));
            if (value == null) {
                throw new Refused("is not an accepted value");
            }
            return value;
        };
        Function<T, String> check = v -> v == null ? "is missing" : canonical.containsKey(v) ? null : "is not an accepted value";
        return new QueenOption<>(option, reading, check, v -> canonical.getOrDefault(v, String.valueOf(v)), allowed,
                false, false);
    }

    /** Any text. */
    public static QueenOption<String> text(ConfigOption<String> option, String allowed) {
        return text(option, t -> null, allowed);
    }

    /** Text that matches {@code pattern} as a whole; else it "is not valid". */
    public static QueenOption<String> text(ConfigOption<String> option, Pattern pattern, String allowed) {
        return text(option, t -> pattern.matcher(t).matches(), "is not valid", allowed);
    }

    /** Text that passes {@code rule}; else the refusal says {@code problem}. */
    public static QueenOption<String> text(ConfigOption<String> option, Predicate<String> rule, String problem,
            String allowed) {
        return text(option, t -> rule.test(t) ? null : problem, allowed);
    }

    /** Text whose problem, if any, {@code problemOf} says (null when it passes). */
    public static QueenOption<String> text(ConfigOption<String> option, Function<String, String> problemOf,
            String allowed) {
        Function<String, String> check = t -> t == null ? "is missing" : problemOf.apply(t);
        return new QueenOption<>(option, t -> t, check, t -> t, allowed, false, false);
    }

    /** The same option, never logged nor echoed in a refusal. */
    public QueenOption<T> secret() {
        return new QueenOption<>(option, reading, check, text, allowed, true, required);
    }

    /** The same option, which a job must set (it has no default). */
    public QueenOption<T> required() {
        if (option.hasDefaultValue()) {
            throw new IllegalStateException(option.key() + " has a default, so it cannot be required");
        }
        return new QueenOption<>(option, reading, check, text, allowed, secret, true);
    }

    /** Flink's option: key, type, default, description. */
    public ConfigOption<T> option() {
        return option;
    }

    /** The Flink configuration key, e.g. {@code queen.s3.max-window-ms}. */
    public String key() {
        return option.key();
    }

    /** The same key read as text, whatever its type, for a reader that parses it with {@link #parse}. */
    public ConfigOption<String> textOption() {
        return asText;
    }

    /** The default, or null when there is none. */
    public T defaultValue() {
        return option.hasDefaultValue() ? option.defaultValue() : null;
    }

    /** The default as its text ({@code 300000}, {@code latest}), or null when there is none. */
    public String defaultText() {
        return option.hasDefaultValue() ? text.apply(option.defaultValue()) : null;
    }

    /** The description, as plain text. */
    public String description() {
        return PlainText.of(option);
    }

    /** What a valid value looks like, in words: {@code 100..86400000}, {@code hour, day or none}. */
    public String allowed() {
        return allowed;
    }

    /** A secret is never logged nor echoed in a refusal. */
    public boolean isSecret() {
        return secret;
    }

    /** Whether a job must set it. */
    public boolean isRequired() {
        return required;
    }

    /** A value as its text: a choice's canonical spelling, a number's digits. */
    public String text(T value) {
        return text.apply(value);
    }

    /** Reads {@code text} into a value within its range, spellings or rule, else throws what {@code refuse} makes of the problem. */
    public T parse(String text, Function<String, ? extends RuntimeException> refuse) {
        T value;
        try {
            value = reading.read(text);
        } catch (Refused e) {
            throw refuse.apply(e.getMessage());
        }
        String problem = check.apply(value);
        if (problem != null) {
            throw refuse.apply(problem);
        }
        return value;
    }

    /** What is wrong with {@code value} ({@code "is out of range"}), if anything. */
    public Optional<String> problem(T value) {
        return Optional.ofNullable(check.apply(value));
    }

    public boolean passes(T value) {
        return check.apply(value) == null;
    }

    /**
     * Returns {@code value} if it passes, else refuses it in one sentence naming the key:
     * {@code queen.s3.fetch-concurrency=257 is out of range: allowed 1..256.}
     */
    public T require(T value) {
        problem(value).ifPresent(problem -> {
            throw new IllegalArgumentException(key() + "=" + shown(value) + " " + problem + ": allowed " + allowed + ".");
        });
        return value;
    }

    /**
     * The value {@code config} sets for this key, read as its text so every spelling an
     * environment variable takes is taken here too; empty when the key is unset or blank. A bad
     * value is refused in one sentence naming the key.
     */
    public Optional<T> read(ReadableConfig config) {
        Optional<String> given = config.getOptional(asText).filter(t -> !t.isBlank());
        return given.map(t -> parse(t.strip(), problem -> new IllegalArgumentException(key() + "="
                + (secret ? "<hidden>" : "'" + t + "'") + " " + problem + ": allowed " + allowed + ".")));
    }

    /** The value as a refusal may show it: a secret hidden, text quoted. */
    public String shown(T value) {
        if (secret) {
            return "<hidden>";
        }
        return value instanceof String s ? "'" + s + "'" : value == null ? "unset" : text(value);
    }

    @Override
    public String toString() {
        return key();
    }

    private static long wholeNumber(String text, long min, long max) throws Refused {
        long value;
        try {
            value = Long.parseLong(text.strip());
        } catch (NumberFormatException e) {
            throw new Refused("is not a whole number");
        }
        if (value < min || value > max) {
            throw new Refused("is out of range");
        }
        return value;
    }

    /** A Flink description as plain text, for refusals, usage texts and the README. */
    private static final class PlainText extends Formatter {

        static String of(ConfigOption<?> option) {
            return new PlainText().format(option.description());
        }

        @Override
        protected void formatLink(StringBuilder state, String link, String description) {
            state.append(description).append(" (").append(link).append(')');
        }

        @Override
        protected void formatLineBreak(StringBuilder state) {
            state.append(' ');
        }

        @Override
        protected void formatText(StringBuilder state, String format, String[] elements,
                EnumSet<TextElement.TextStyle> styles) {
            state.append(elements.length == 0 ? format : String.format(format, (Object[]) elements));
        }

        @Override
        protected void formatList(StringBuilder state, String[] entries) {
            state.append(String.join("; ", entries));
        }

        @Override
        protected Formatter newInstance() {
            return new PlainText();
        }
    }
}
