package io.queenlake.job.cli;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Checks of the launcher's own options that would otherwise fail deep inside Flink (a 33-frame
 * stack trace naming only a path, "Could not create the DispatcherResourceManagerComponent"): made
 * before anything starts, each failing with one line naming the option and what to do.
 */
final class LauncherChecks {

    /** The address the web UI and the dev broker of {@code run} and {@code demo} listen on. */
    static final String LOOPBACK = "127.0.0.1";

    private LauncherChecks() {}

    /**
     * {@code --state-dir}: a folder, created when missing, that this user can write; the absolute
     * path, its {@code checkpoints} sub-folder created.
     */
    static Path stateDir(String command, String given) {
        Path dir;
        try {
            dir = Path.of(given).toAbsolutePath();
        } catch (InvalidPathException e) {
            throw new UsageException(command + ": --state-dir " + given + " is not a path (" + e.getReason()
                    + "): name a folder for the retained checkpoints");
        }
        Path existing = dir;
        while (existing.getParent() != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (Files.exists(existing) && !Files.isDirectory(existing)) {
            throw new UsageException(command + ": --state-dir " + given + (existing.equals(dir) ? " is a file"
                    : " lies inside " + existing + ", which is a file") + ", not a folder: name a folder for the"
                    + " retained checkpoints (it is created when missing)");
        }
        Path checkpoints = dir.resolve("checkpoints");
        try {
            Files.createDirectories(checkpoints);
        } catch (IOException e) {
            throw new UsageException(command + ": --state-dir " + given + " cannot be created (" + why(e)
                    + "): name a folder this user can create and write");
        }
        if (!Files.isWritable(checkpoints)) {
            throw new UsageException(command + ": --state-dir " + given + " is not writable by this user: name a folder"
                    + " this user can write");
        }
        return dir;
    }

    /** Fails naming {@code --option} when {@code port} (0 picks a free one) is taken on {@value #LOOPBACK}. */
    static void freePort(String command, String option, int port) {
        if (port == 0) {
            return;
        }
        try (ServerSocket probe = new ServerSocket()) {
            probe.bind(new InetSocketAddress(InetAddress.getByName(LOOPBACK), port));
        } catch (IOException e) {
            throw new UsageException(command + ": " + portTaken(option, port));
        }
    }

    /** The sentence for a port something else listens on, without the command. */
    static String portTaken(String option, int port) {
        return "--" + option + " " + port + " is taken: something already listens on " + LOOPBACK + ":" + port
                + "; stop it or pick another port (0 picks a free one)";
    }

    /** The bind failure among {@code failure}'s causes, if one caused it. */
    static Optional<BindException> bindFailure(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof BindException b) {
                return Optional.of(b);
            }
        }
        return Optional.empty();
    }

    private static String why(IOException e) {
        if (e instanceof FileAlreadyExistsException f) {
            return "a file is in the way at " + f.getFile();
        }
        if (e instanceof AccessDeniedException a) {
            return "permission denied at " + a.getFile();
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
