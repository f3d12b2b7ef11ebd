package io.queenlake.connector.sink.writer;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.RecoverableFsDataOutputStream;
import org.apache.flink.core.fs.RecoverableWriter;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * The root's real {@link RecoverableWriter}, forwarded, that logs when each window's object is
 * opened and when it is staged ({@code open:k}, {@code staged:k}) and lets a test hold an open
 * until something else happened: the only way to make the first upload finish last without
 * sleeping.
 */
class ObservedStaging implements RecoverableWriter {

    private final RecoverableWriter real;
    private final List<String> events = new ArrayList<>();

    ObservedStaging(RecoverableWriter real) {
        this.real = real;
    }

    /** Called on the upload thread as window {@code k}'s object is opened, before the real open. */
    void beforeOpen(long k) throws IOException {}

    /** Called on the upload thread once window {@code k}'s object is staged. */
    void afterStaged(long k) {}

    synchronized List<String> events() {
        return List.copyOf(events);
    }

    private synchronized void log(String event) {
        events.add(event);
    }

    /** Window k of an object key's file name {@code w-<k>-...}. */
    static long kOf(Path path) {
        String name = path.getName();
        return Long.parseLong(name.substring(2, name.indexOf('-', 2)));
    }

    @Override
    public RecoverableFsDataOutputStream open(Path path) throws IOException {
        long k = kOf(path);
        log("open:" + k);
        beforeOpen(k);
        RecoverableFsDataOutputStream out = real.open(path);
        return new RecoverableFsDataOutputStream() {
            @Override
            public ResumeRecoverable persist() throws IOException {
                return out.persist();
            }

            @Override
            public Committer closeForCommit() throws IOException {
                Committer committer = out.closeForCommit();
                log("staged:" + k);
                afterStaged(k);
                return committer;
            }

            @Override
            public void close() throws IOException {
                out.close();
            }

            @Override
            public long getPos() throws IOException {
                return out.getPos();
            }

            @Override
            public void flush() throws IOException {
                out.flush();
            }

            @Override
            public void sync() throws IOException {
                out.sync();
            }

            @Override
            public void write(int b) throws IOException {
                out.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
            }
        };
    }

    @Override
    public RecoverableFsDataOutputStream recover(ResumeRecoverable resumable) throws IOException {
        return real.recover(resumable);
    }

    @Override
    public boolean requiresCleanupOfRecoverableState() {
        return real.requiresCleanupOfRecoverableState();
    }

    @Override
    public boolean cleanupRecoverableState(ResumeRecoverable resumable) throws IOException {
        return real.cleanupRecoverableState(resumable);
    }

    @Override
    public RecoverableFsDataOutputStream.Committer recoverForCommit(CommitRecoverable resumable) throws IOException {
        return real.recoverForCommit(resumable);
    }

    @Override
    public SimpleVersionedSerializer<CommitRecoverable> getCommitRecoverableSerializer() {
        return real.getCommitRecoverableSerializer();
    }

    @Override
    public SimpleVersionedSerializer<ResumeRecoverable> getResumeRecoverableSerializer() {
        return real.getResumeRecoverableSerializer();
    }

    @Override
    public boolean supportsResume() {
        return real.supportsResume();
    }
}
