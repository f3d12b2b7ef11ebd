package io.queenlake.connector.verify;

import io.queenlake.format.codec.DecodedRecord;
import io.queenlake.format.jsonl.PayloadText;
import io.queenlake.format.key.NameEscaping;
import io.queenlake.format.key.Prefix;
import io.queenlake.format.key.SidecarKeys;
import io.queenlake.format.manifest.Committed;
import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.manifest.ManifestJson;
import io.queenlake.format.manifest.ManifestObject;
import io.queenlake.format.model.LogRecord;
import io.queenlake.format.model.LostRange;
import io.queenlake.format.model.Micros;
import io.queenlake.format.object.Format;
import io.queenlake.source.enumerator.start.LakeAhead;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks one queue of a lake, reading only the bucket (it backs {@code ./queen-lake verify} and
 * the tests' assertions, so no JUnit here): manifests {@code 1..committedK} exist and parse;
 * windows are numbered without gaps and do not overlap; each manifest matches its objects (bytes,
 * records, sha256, partitions, minTs, maxTs, and the resume positions when it has them); every record lies in {@code [tStart, tEnd)} of its
 * window; no record ({@code partition, offset, ts}) is in two objects; every object under the
 * queue's data prefix is named by a manifest (no orphans); object keys sort in {@code k} order; and
 * the commit pointer names manifest {@code k} and its {@code tEnd}. Given the records that were
 * pushed, it also checks that each is in the lake exactly once with its bytes, and nothing else is.
 *
 * <p>Objects of window {@code committedK + 1} are pending, not orphans: the committer publishes a
 * window's objects and manifest before it moves the pointer, so a running job shows them for a
 * moment, and one that crashed between those steps until the next run finishes the window's
 * intent under the same keys. Anything above {@code committedK + 1} is an orphan: the committer
 * publishes one window per queue at a time.
 */
public final class LakeChecker {

    /** {@code (partition, offset, ts)}: offsets restart in a re-created partition, stamps never repeat in one. */
    private record RecordId(String partition, long offset, long tsMicros) {}

    private static final Pattern WINDOW_FILE = Pattern.compile("/w-(\\d{10})-[^/]*$");

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

    /**
     * The lake's own consistency for a queue whose KV commit pointer is {@code pointer} (null when
     * absent), one window above it allowed a manifest (the window a crashed commit may have left).
     */
    public LakeReport check(String tenant, String queue, Committed pointer) throws IOException {
        return check(tenant, queue, pointer, (pointer == null ? 0 : pointer.k()) + 1);
    }

    /**
     * The same, with the last window that the pointer and the queue's intent account for
     * ({@code ManifestTrail.accountedFor}): a manifest above it is the KV having forgotten committed
     * windows, as the job sees it when it refuses the queue.
     */
    public LakeReport check(String tenant, String queue, Committed pointer, long accounted) throws IOException {
        long k = pointer == null ? 0 : pointer.k();
        Walk walk = walk(tenant, queue, k, accounted);
        if (pointer != null) {
            String manifestKey = new SidecarKeys(prefix, tenant, queue).manifest(k);
            if (!pointer.manifest().equals(manifestKey)) {
                walk.problems.add("the commit pointer names manifest " + pointer.manifest() + ", window " + k
                        + "'s manifest is " + manifestKey);
            }
            if (walk.last != null && walk.last.k() == k && walk.last.tEnd() != pointer.tEnd()) {
                walk.problems.add("the commit pointer says tEnd " + Micros.render(pointer.tEnd()) + ", manifest " + k
                        + " ends at " + Micros.render(walk.last.tEnd()));
            }
        }
        return walk.report(queue, k);
    }

    /**
     * The lake's consistency through window {@code committedK}, and that it holds every record of
     * {@code expected} exactly once (partition, offset, stamp, transaction id, payload bytes as the
     * format writes them) and nothing else.
     */
    public LakeReport check(String tenant, String queue, long committedK, Collection<LogRecord> expected)
            throws IOException {
        Walk walk = walk(tenant, queue, committedK, committedK + 1);
        checkExactlyOnce(expected, walk.found, walk.problems, walk.rewritten);
        return walk.report(queue, committedK);
    }

    /** What one pass over manifests 1..k, their objects and the data prefix found. */
    private static final class Walk {
        final ProblemList problems = new ProblemList();
        final Map<RecordId, DecodedRecord> found = new HashMap<>();
        final Map<RecordId, String> seenIn = new HashMap<>();
        final Set<String> named = new HashSet<>();
        final List<LostRange> lost = new ArrayList<>();
        final List<String> orphans = new ArrayList<>();
        final List<String> pending = new ArrayList<>();
        final List<String> rewritten = new ArrayList<>();
        Manifest last;
        long records;
        long bytes;

        LakeReport report(String queue, long k) {
            return new LakeReport(queue, k, records, bytes, lost, orphans, pending, rewritten, problems.list());
        }
    }

    private Walk walk(String tenant, String queue, long committedK, long accounted) throws IOException {
        Walk walk = new Walk();
        ProblemList problems = walk.problems;
        SidecarKeys sidecars = new SidecarKeys(prefix, tenant, queue);
        String dataPrefix = dataPrefix(tenant, queue);
        String previousLastKey = null;
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
            if (walk.last != null && m.tStart() < walk.last.tEnd()) {
                problems.add("window " + k + " starts at " + m.tStart() + ", before window " + walk.last.k()
                        + " ends at " + walk.last.tEnd() + ": windows overlap");
            } else if (walk.last != null && m.tStart() > walk.last.tEnd() && !startsAtItsBoundary(m)) {
                problems.add("window " + k + " starts at " + m.tStart() + ", after window " + walk.last.k()
                        + " ends at " + walk.last.tEnd() + " with no hour or day boundary at its start: windows must tile");
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
            walk.lost.addAll(m.lost());
            checkWindow(m, dataPrefix, walk);
            walk.last = m;
        }
        Set<String> ahead = manifestsAhead(sidecars, committedK, accounted, queue, walk);
        for (String key : files.list(dataPrefix)) {
            if (walk.named.contains(key) || ahead.contains(key)) {
                continue;
            }
            OptionalLong k = windowOf(key);
            if (k.isPresent() && k.getAsLong() == committedK + 1) {
                walk.pending.add(key);
            } else {
                walk.orphans.add(key);
                problems.add("object " + key + " is named by no manifest 1.." + committedK + " (an orphan)");
            }
        }
        return walk;
    }

    /**
     * Manifests beyond {@code accounted} (the pointer's window, or the one after it when an intent
     * names it: a crashed commit may have published that one without its pointer) mean the KV
     * forgot committed windows: the broker lost its KV, or someone
     * deleted or rewrote the pointer. That is one problem, named with its remedy, and the objects
     * those manifests name are the lake's, not orphans. Returns their keys.
     */
    private Set<String> manifestsAhead(SidecarKeys sidecars, long committedK, long accounted, String queue, Walk walk)
            throws IOException {
        long highest = committedK;
        Set<Long> above = new HashSet<>();
        for (String key : files.list(sidecars.manifestDirectory())) {
            OptionalLong k = sidecars.parseManifest(key);
            if (k.isPresent() && k.getAsLong() > committedK) {
                above.add(k.getAsLong());
            }
        }
        while (above.contains(highest + 1)) {
            highest++;
        }
        if (highest <= Math.max(committedK, accounted)) {
            return Set.of();
        }
        Set<String> named = new HashSet<>();
        Set<String> sinks = new TreeSet<>();
        for (long k = committedK + 1; k <= highest; k++) {
            byte[] json = files.read(sidecars.manifest(k));
            try {
                Manifest m = ManifestJson.read(json);
                sinks.add("'" + m.sink() + "'");
                m.objects().forEach(o -> named.add(o.key()));
            } catch (RuntimeException unreadable) {
                // Its objects, if any, are reported as orphans: the repair stops below this manifest anyway.
            }
        }
        LakeAhead ahead = new LakeAhead(queue, "", committedK == 0 ? OptionalLong.empty() : OptionalLong.of(committedK),
                highest);
        walk.problems.add("the commit pointer is " + ahead.pointerState() + " but " + ahead.manifestsAbove()
                + " (of sink " + String.join(", ", sinks) + ") exist in the bucket (" + ahead.cause()
                + "; not another writer): their " + named.size() + " objects are the lake's, not orphans; rebuild the"
                + " pointer from the lake with " + ahead.repairCommand() + " (or, if that sink is not the one checked,"
                + " check --sink)");
        return named;
    }

    private void checkWindow(Manifest m, String dataPrefix, Walk walk) throws IOException {
        ProblemList problems = walk.problems;
        long records = 0;
        long bytes = 0;
        long minTs = Long.MAX_VALUE;
        long maxTs = Long.MIN_VALUE;
        Set<String> partitions = new HashSet<>();
        Map<String, DecodedRecord> newest = new TreeMap<>();
        for (ManifestObject o : m.objects()) {
            walk.named.add(o.key());
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
            String sha = sha256(body);
            if (!sha.equals(o.sha256())) {
                problems.add("object " + o.key() + " has sha256 " + sha + ", its manifest says " + o.sha256());
            }
            bytes += body.length;
            List<DecodedRecord> decoded;
            try {
                decoded = Format.readerFor(o.key()).read(o.key(), body);
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
                newest.merge(r.partition(), r, (a, b) -> b.tsMicros() > a.tsMicros()
                        || (b.tsMicros() == a.tsMicros() && b.offset() > a.offset()) ? b : a);
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
                String earlier = walk.seenIn.putIfAbsent(id, o.key());
                if (earlier != null) {
                    problems.add("record " + r + " is in " + earlier + " and again in " + o.key());
                } else {
                    walk.found.put(id, r);
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
        if (!m.positions().isEmpty()) {
            Map<String, Long> said = new TreeMap<>();
            m.positions().forEach(p -> said.put(p.partition(), p.offset()));
            Map<String, Long> held = new TreeMap<>();
            newest.forEach((partition, r) -> held.put(partition, r.offset() + 1));
            if (!said.equals(held)) {
                problems.add("manifest " + m.k() + " says its partitions continue at " + said
                        + "; its objects' newest records put them at " + held);
            }
        }
        walk.records += records;
        walk.bytes += bytes;
    }

    private static void checkExactlyOnce(Collection<LogRecord> expected, Map<RecordId, DecodedRecord> found,
            ProblemList problems, List<String> rewritten) {
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
            StoredPayload.Match payload = StoredPayload.match(e.payload(), r.payload());
            if (payload == StoredPayload.Match.REWRITTEN) {
                rewritten.add(e.partition() + "@" + e.offset());
                problems.add("record " + r + ": payload rewritten: the pushed bytes are not one JSON text ("
                        + PayloadText.whyRewritten(e.payload()) + "), the lake holds " + text(r.payload()));
            } else if (payload == StoredPayload.Match.DIFFERENT) {
                problems.add("record " + r + " has payload " + text(r.payload()) + ", pushed " + text(e.payload()));
            }
        }
        for (Map.Entry<RecordId, DecodedRecord> e : found.entrySet()) {
            if (!wanted.contains(e.getKey())) {
                problems.add("record " + e.getValue() + " is in the lake but was never pushed");
            }
        }
    }

    /** The window number of a data object's key ({@code .../w-<k:10>-...}), if it has one. */
    static OptionalLong windowOf(String key) {
        Matcher m = WINDOW_FILE.matcher(key);
        return m.find() ? OptionalLong.of(Long.parseLong(m.group(1))) : OptionalLong.empty();
    }

    private static String text(byte[] b) {
        return b == null ? "NULL" : "'" + new String(b, StandardCharsets.UTF_8) + "'";
    }

    /** Lowercase hex sha256 of an object body, as manifests write it. */
    public static String sha256(byte[] body) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Windows tile: a window may start after the one before ended only at the alignment boundary
     * (the hour, or the day) its first record falls in, when that boundary lies in between.
     */
    private static boolean startsAtItsBoundary(Manifest m) {
        return m.tStart() <= m.minTs()
                && (m.tStart() == Micros.hourFloor(m.minTs()) || m.tStart() == Micros.dayFloor(m.minTs()));
    }
}
