package io.queenlake.format.window;

import io.queenlake.format.key.DataKey;
import io.queenlake.format.key.Prefix;
import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.manifest.ManifestObject;
import io.queenlake.format.model.Layout;
import io.queenlake.format.model.LogRecord;
import io.queenlake.format.order.WindowRecordOrder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Turns a closed window into its objects and manifest: records put into lake order, encoded with
 * the pinned settings, keyed, hashed and counted. The result is a function of the window's record
 * set, its number and bounds, the queue and the settings alone; {@code committedAt} is left for
 * the committer. Owns no I/O beyond memory.
 */
public final class WindowEncoder {

    private final WriterSettings settings;
    private final ObjectEncoder encoder;
    private final Prefix prefix;
    private final String sink;

    public WindowEncoder(WriterSettings settings, Prefix prefix, String sink) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.encoder = settings.encoder();
        this.prefix = Objects.requireNonNull(prefix, "prefix");
        this.sink = Objects.requireNonNull(sink, "sink");
    }

    public WriterSettings settings() {
        return settings;
    }

    public EncodedWindow encode(WindowInput window) throws IOException {
        List<LogRecord> ordered = WindowRecordOrder.inLakeOrder(window.records());
        ObjectLabels labels = new ObjectLabels(window.tenant(), window.queue());
        List<EncodedObject> objects = new ArrayList<>();
        if (settings.layout() == Layout.MERGED) {
            objects.add(encodeObject(window, labels, ordered, null));
        } else {
            int from = 0;
            Set<String> keys = new HashSet<>();
            for (int i = 1; i <= ordered.size(); i++) {
                if (i == ordered.size() || !ordered.get(i).partition().equals(ordered.get(from).partition())) {
                    List<LogRecord> group = ordered.subList(from, i);
                    DataKey.PartitionSlice slice = new DataKey.PartitionSlice(group.get(0).partition(),
                            group.get(0).offset(), group.get(group.size() - 1).offset());
                    EncodedObject object = encodeObject(window, labels, group, slice);
                    if (!keys.add(object.key())) {
                        throw new IllegalStateException("two objects of window " + window.k() + " share the key "
                                + object.key());
                    }
                    objects.add(object);
                    from = i;
                }
            }
        }
        return new EncodedWindow(manifestOf(window, ordered, objects), objects);
    }

    private EncodedObject encodeObject(WindowInput w, ObjectLabels labels, List<LogRecord> records,
            DataKey.PartitionSlice slice) throws IOException {
        MessageDigest sha = sha256();
        ByteArrayOutputStream body = new ByteArrayOutputStream(Math.max(1024, records.size() * 64));
        try (DigestOutputStream out = new DigestOutputStream(body, sha)) {
            encoder.encode(records, labels, out);
        }
        String key = new DataKey(prefix, w.tenant(), w.queue(), settings.align(), w.k(), w.tStart(), w.tEnd(),
                encoder.extension(), slice).render();
        byte[] bytes = body.toByteArray();
        String hex = HexFormat.of().formatHex(sha.digest());
        return new EncodedObject(new ManifestObject(key, bytes.length, records.size(), hex, slice), bytes);
    }

    private Manifest manifestOf(WindowInput w, List<LogRecord> ordered, List<EncodedObject> objects) {
        long minTs = Long.MAX_VALUE;
        long maxTs = Long.MIN_VALUE;
        long partitions = 0;
        String lastName = null;
        for (LogRecord r : ordered) {
            minTs = Math.min(minTs, r.tsMicros());
            maxTs = Math.max(maxTs, r.tsMicros());
            if (!r.partition().equals(lastName)) {
                partitions++;
                lastName = r.partition();
            }
        }
        long bytes = 0;
        List<ManifestObject> entries = new ArrayList<>(objects.size());
        for (EncodedObject o : objects) {
            bytes += o.entry().bytes();
            entries.add(o.entry());
        }
        return new Manifest(sink, w.tenant(), w.queue(), w.k(), w.tStart(), w.tEnd(), encoder.format(),
                encoder.compression(), settings.layout(), entries, ordered.size(), bytes, partitions, minTs, maxTs,
                w.lost(), encoder.describe(), null);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-256", e);
        }
    }
}
