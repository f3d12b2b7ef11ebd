package io.queenlake.job.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;

/**
 * A secret setting's {@code _FILE} form, the convention of container images: the variable
 * {@code QUEEN_TOKEN_FILE} (or {@code QUEEN_S3_SECRET_KEY_FILE}) names a file whose content, with
 * one trailing newline stripped, is the secret, so the secret is in neither the process list nor
 * the environment a crash report dumps. It stands at the environment's place in the precedence.
 * Refused, each in one line naming the variable and the path but never the content: the variable
 * beside its plain form, a file that cannot be read, one that is not UTF-8, empty, over
 * {@value #MAX_BYTES} bytes, or holding whitespace or control characters beyond that one newline
 * (a second line, a stray space: the secret would silently be something else).
 */
final class SecretFiles {

    static final String SUFFIX = "_FILE";
    /** A secret is a few dozen bytes; a bigger file is the wrong file (and /dev/zero never ends). */
    static final int MAX_BYTES = 64 * 1024;

    private SecretFiles() {}

    /** The variable naming {@code secret}'s file, e.g. {@code QUEEN_TOKEN_FILE}. */
    static String variable(Setting secret) {
        return secret.envName() + SUFFIX;
    }

    /** Refuses a secret given both as {@code X} and as {@code X_FILE} in the environment. */
    static void refuseBoth(Map<String, String> env) {
        for (Setting s : Setting.values()) {
            if (s.secret() && !isBlank(env.get(s.envName())) && !isBlank(env.get(variable(s)))) {
                throw new SettingsException(s.envName() + " and " + variable(s) + " are both set (environment): set"
                        + " one of them, the secret itself or the path of a file holding it.");
            }
        }
    }

    /** The secret in the file {@code X_FILE} names, or null when that variable is unset or blank. */
    static String read(Setting secret, Map<String, String> env) {
        String path = env.get(variable(secret));
        if (isBlank(path)) {
            return null;
        }
        String named = variable(secret) + "='" + path + "' (environment)";
        byte[] bytes;
        try (InputStream in = Files.newInputStream(Path.of(path))) {
            bytes = in.readNBytes(MAX_BYTES + 1);
        } catch (InvalidPathException | IOException e) {
            throw new SettingsException(named + " names a file that cannot be read (" + why(e) + "): mount the"
                    + " secret there, readable by the job's user, or unset " + variable(secret) + ".");
        }
        if (bytes.length > MAX_BYTES) {
            throw new SettingsException(named + " names a file over " + MAX_BYTES + " bytes, too big to be "
                    + secret.envName() + ": name the file that holds the secret alone.");
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new SettingsException(named + " names a file that is not UTF-8 text: write the secret there as text.");
        }
        text = withoutOneTrailingNewline(text);
        if (text.isEmpty()) {
            throw new SettingsException(named + " names an empty file: write " + secret.envName()
                    + " there, or unset " + variable(secret) + ".");
        }
        if (!text.equals(text.strip()) || text.chars().anyMatch(ch -> ch < 0x20 || ch == 0x7f)) {
            throw new SettingsException(named + " names a file that holds more than the secret (whitespace, a second"
                    + " line or control characters beyond one trailing newline): write the secret alone there.");
        }
        return text;
    }

    private static String withoutOneTrailingNewline(String text) {
        if (text.endsWith("\r\n")) {
            return text.substring(0, text.length() - 2);
        }
        return text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
    }

    private static String why(Exception e) {
        if (e instanceof NoSuchFileException) {
            return "no such file";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof InvalidPathException) {
            return "not a valid path";
        }
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return message.replaceAll("\\s+", " ").strip();
    }

    private static boolean isBlank(String value) {
        return value == null || value.isBlank();
    }
}
