package io.queenlake.job.config;

/**
 * A setting the job refuses, before anything is submitted. The message is one line naming the
 * setting, the value (never a secret's) and what is allowed.
 */
public final class SettingsException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public SettingsException(String message) {
        super(message);
    }
}
