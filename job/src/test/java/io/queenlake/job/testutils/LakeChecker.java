package io.queenlake.job.testutils;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.queenlake.format.key.NameEscaping;
import io.queenlake.format.key.Prefix;
import io.queenlake.format.key.SidecarKeys;
import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.manifest.ManifestJson;
import io.queenlake.format.manifest.ManifestObject;
import io.queenlake.format.model.LogRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks one queue of a lake against the records that were pushed, reading only the bucket (it
 * will back {@code ./queen-lake verify}, so no JUnit here): manifests {@code 1..committedK} exist
 * and parse; windows are numbered without gaps and do not overlap; each manifest matches its
 * objects (bytes, records, sha256, partitions, minTs, maxTs); every record lies in
 * {@code [tStart, tEnd)} of its window; every expected record (partition, offset, stamp,
 * transaction id, payload bytes as the format writes them) is in exactly one object once and
 * nothing else is; every object under the queue's data prefix is named by a manifest (no
 * orphans); and object keys sort in {@code k} order.
 */
public final class LakeChecker {

    private static final int MAX_PROBLEMS = 50;
    private static final JsonFactory JSON = new JsonFactory();

    private final LakeFiles files;
    private final Prefix prefix;

    public LakeChecker(LakeFiles files, Prefix prefix) {
        this.files = files;
        this.prefix = prefix;
    }

    /** The data prefix of a queue: {@code <prefix>/tenant=<T>/queue=<Q>/}. */
    public String dataPrefix(String tenant, String queue) {
        return prefix.value() + "/tenant=" + NameEscaping.escape(tenant) + "/queue=" + NameEscaping.escape(queue) + "/";
    }

    public LakeReport check(String tenant, String queue, long committedK, Collection<LogRecord> expected)
            throws IOException {
        Problems problems = new Problems();
        SidecarKeys sidecars = new SidecarKeys(prefix, tenant, queue);
        String dataPrefix = dataPrefix(tenant, queue);
        Map<RecordId, String> seen = new HashMap<>();
        Map<RecordId, DecodedRecord> found = new HashMap<>();
        Set<String> named = new HashSet<>();
        Manifest previous = null;
        String previousLastKey = null;
        long recordsRead = 0;
        for (long k = 1; k <= committedK; k++) {
            String manifestKey = sidecars.manifest(k);
            byte[] json = files.read(manifestKey);
            if (json == null) {
                problems.add("manifest " + manifestKey + " of committed window " + k + " is missing");
                continue;
            }
            Manifest m;
            try {
                m = ManifestJson.read(json);
            } catch (RuntimeException e) {
                problems.add("manifest " + manifestKey + " does not parse: " + e.getMessage());
                continue;
            }
            if (m.k() != k || !m.queue().equals(queue) || !m.tenant().equals(tenant)) {
                problems.add("manifest " + manifestKey + " names window " + m.k() + " of queue '" + m.queue()
                        + "' tenant " + m.tenant());
            }
            if (!m.isStamped()) {
                problems.add("manifest " + k + " has no committedAt");
            }
            if (m.tStart() >= m.tEnd()) {
                problems.add("window " + k + " is empty or reversed: [" + m.tStart() + ", " + m.tEnd() + ")");
            }
            if (previous != null && m.tStart() < previous.tEnd()) {
                problems.add("window " + k + " starts at " + m.tStart() + ", before window " + previous.k()
                        + " ends at " + previous.tEnd() + ": windows overlap");
            }
            List<String> keys = m.objects().stream().map(ManifestObject::key).sorted().toList();
            if (keys.isEmpty()) {
                problems.add("manifest " + k + " names no object");
            } else {
                if (previousLastKey != null && keys.get(0).compareTo(previousLastKey) <= 0) {
                    problems.add("object key " + keys.get(0) + " of window " + k + " does not sort after "
                            + previousLastKey + " of the window before");
                }
                previousLastKey = keys.get(keys.size() - 1);
            }
            recordsRead += checkWindow(m, dataPrefix, named, seen, found, problems);
            previous = m;
        }
        checkExactlyOnce(expected, found, problems);
        for (String key : files.list(dataPrefix)) {
            if (!named.contains(key)) {
                problems.add("object " + key + " is named by no manifest 1.." + committedK + " (an orphan)");
            }
        }
        return new LakeReport(queue, committedK, recordsRead, problems.list());
    }

    private long checkWindow(Manifest m, String dataPrefix, Set<String> named, Map<RecordId, String> seen,
            Map<RecordId, DecodedRecord> found, Problems problems) throws IOException {
        long records = 0;
        long bytes = 0;
        long minTs = Long.MAX_VALUE;
        long maxTs = Long.MIN_VALUE;
        Set<String> partitions = new HashSet<>();
        for (ManifestObject o : m.objects()) {
            named.add(o.key());
            if (!o.key().startsWith(dataPrefix)) {
                problems.add("object " + o.key() + " of window " + m.k() + " lies outside the queue's data prefix " + dataPrefix);
            }
            byte[] body = files.read(o.key());
            if (body == null) {
                problems.add("object " + o.key() + " of window " + m.k() + " is missing");
                continue;
            }
            if (body.length != o.bytes()) {
                problems.add("object " + o.key() + " is " + body.length + " bytes, its manifest says " + o.bytes());
            }
            if (!sha256(body).equals(o.sha256())) {
                problems.add("object " + o.key() + " has sha256 " + sha256(body) + ", its manifest says " + o.sha256());
            }
            bytes += body.length;
            List<DecodedRecord> decoded;
            try {
                decoded = LakeObjectReader.read(o.key(), body);
            } catch (IOException | RuntimeException e) {
                problems.add("object " + o.key() + " cannot be read back: " + e);
                continue;
            }
            if (decoded.size() != o.records()) {
                problems.add("object " + o.key() + " holds " + decoded.size() + " records, its manifest says " + o.records());
            }
            for (DecodedRecord r : decoded) {
                records++;
                partitions.add(r.partition());
                minTs = Math.min(minTs, r.tsMicros());
                maxTs = Math.max(maxTs, r.tsMicros());
                if (r.tsMicros() < m.tStart() || r.tsMicros() >= m.tEnd()) {
                    problems.add("record " + r + " in " + o.key() + " lies outside window " + m.k() + " ["
                            + m.tStart() + ", " + m.tEnd() + ")");
                }
                if (o.slice() != null && !o.slice().partition().equals(r.partition())) {
                    problems.add("record " + r + " lies in the per-partition object of " + o.slice().partition());
                }
                RecordId id = new RecordId(r.partition(), r.offset(), r.tsMicros());
                String earlier = seen.putIfAbsent(id, o.key());
                if (earlier != null) {
                    problems.add("record " + r + " is in " + earlier + " and again in " + o.key());
                } else {
                    found.put(id, r);
                }
            }
        }
        if (records != m.records() || bytes != m.bytes() || partitions.size() != m.partitions()) {
            problems.add("manifest " + m.k() + " says " + m.records() + " records, " + m.bytes() + " bytes, "
                    + m.partitions() + " partitions; its objects hold " + records + ", " + bytes + ", " + partitions.size());
        }
        if (records > 0 && (minTs != m.minTs() || maxTs != m.maxTs())) {
            problems.add("manifest " + m.k() + " says minTs=" + m.minTs() + " maxTs=" + m.maxTs()
                    + "; its records span " + minTs + ".." + maxTs);
        }
        return records;
    }

    private void checkExactlyOnce(Collection<LogRecord> expected, Map<RecordId, DecodedRecord> found, Problems problems) {
        Set<RecordId> wanted = new HashSet<>();
        for (LogRecord e : expected) {
            RecordId id = new RecordId(e.partition(), e.offset(), e.tsMicros());
            wanted.add(id);
            DecodedRecord r = found.get(id);
            if (r == null) {
                problems.add("record " + e.partition() + "@" + e.offset() + " ts=" + e.tsMicros() + " is in no object");
                continue;
            }
            if (!e.transactionId().equals(r.transactionId())) {
                problems.add("record " + r + " has transactionId '" + r.transactionId() + "', pushed '" + e.transactionId() + "'");
            }
            if (!payloadMatches(e.payload(), r.payload())) {
                problems.add("record " + r + " has payload " + text(r.payload()) + ", pushed " + text(e.payload()));
            }
        }
        for (RecordId id : found.keySet()) {
            if (!wanted.contains(id)) {
                problems.add("record " + found.get(id) + " is in the lake but was never pushed");
            }
        }
    }

    /**
     * Whether the object's payload is what the format makes of the pushed one: Parquet keeps it raw
     * (NULL when empty); JSONL splices valid JSON with raw line breaks as spaces ({@code null} when
     * empty) and writes anything else as a JSON string of its text.
     */
    static boolean payloadMatches(byte[] pushed, byte[] stored) {
        if (stored == null) {
            return pushed.length == 0;
        }
        if (Arrays.equals(pushed, stored)) {
            return true;
        }
        if (pushed.length == 0) {
            return Arrays.equals(stored, "null".getBytes(StandardCharsets.US_ASCII));
        }
        byte[] spaced = pushed.clone();
        for (int i = 0; i < spaced.length; i++) {
            if (spaced[i] == '\n' || spaced[i] == '\r') {
                spaced[i] = ' ';
            }
        }
        if (Arrays.equals(spaced, stored)) {
            return true;
        }
        try (JsonParser p = JSON.createParser(stored)) {
            return p.nextToken() == JsonToken.VALUE_STRING
                    && p.getText().equals(new String(pushed, StandardCharsets.UTF_8));
        } catch (IOException e) {
            return false;
        }
    }

    private static String text(byte[] b) {
        return b == null ? "NULL" : "'" + new String(b, StandardCharsets.UTF_8) + "'";
    }

    static String sha256(byte[] body) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private record RecordId(String partition, long offset, long tsMicros) {}

    private static final class Problems {
        private final List<String> list = new ArrayList<>();
        private int dropped;

        void add(String problem) {
            if (list.size() < MAX_PROBLEMS) {
                list.add(problem);
            } else {
                dropped++;
            }
        }

        List<String> list() {
            if (dropped == 0) {
                return list;
            }
            List<String> all = new ArrayList<>(list);
            all.add("... and " + dropped + " more problems");
            return all;
        }
    }
}
