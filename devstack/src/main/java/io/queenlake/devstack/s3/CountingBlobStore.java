package io.queenlake.devstack.s3;

import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.gaul.s3proxy.S3ErrorCode;
import org.gaul.s3proxy.S3ProxyException;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.blobstore.ForwardingBlobStore;
import org.gaul.s3proxy.blobstore.domain.MultipartUpload;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.CopyObjectResponse;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectResponse;
import software.amazon.awssdk.services.s3.model.DeleteObjectsRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsRequest;
import software.amazon.awssdk.services.s3.model.ListObjectsResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

/**
 * Counts the object requests the server serves, by S3 operation name (PutObject, HeadObject,
 * DeleteObjects, ...): what a job's writes cost in requests, which on a real bucket are billed and
 * each one a round trip. It sees the calls S3Proxy's handler makes on the store, which are one per
 * request except for multipart uploads: S3Proxy keeps an upload's state in an object of its own
 * ({@value #UPLOAD_STATE_PREFIX}{@code <upload id>}), written at its creation, read at its completion
 * and deleted at its completion or abort. Calls on those objects are not counted, so the counts are
 * the requests a client sent (EmbeddedS3Test pins this).
 *
 * <p>It also keeps every write request with its encryption and checksum headers ({@link S3Request}),
 * and says it supports server-side encryption: S3Proxy otherwise answers 501 to any request that
 * carries {@code x-amz-server-side-encryption}, while a real bucket takes it. The bytes are stored
 * as they came.
 *
 * <p>With a latency, every counted request (and only those: one per request a client sent) first
 * waits that long on its own Jetty thread, as a round trip to a real bucket would; the other
 * requests go on meanwhile.
 */
final class CountingBlobStore extends ForwardingBlobStore {

    /** The key prefix of S3Proxy's own objects holding a multipart upload's state. */
    static final String UPLOAD_STATE_PREFIX = ".s3proxy-mpu-stub-";

    private final Map<String, LongAdder> counts;
    private final Queue<S3Request> writes;
    private final AtomicReference<String> failingPrefix;
    private final AtomicReference<WriteHold> hold;
    private final long latencyMs;

    /**
     * {@code counts}, {@code writes}, {@code failingPrefix} (the key prefix whose writes answer 500,
     * or null) and {@code hold} (writes that wait for a test's release, or null): shared by every
     * store of one server, so they survive its restarts. Every counted request waits
     * {@code latencyMs} before it is served.
     */
    CountingBlobStore(BlobStore store, Map<String, LongAdder> counts, Queue<S3Request> writes,
            AtomicReference<String> failingPrefix, AtomicReference<WriteHold> hold, long latencyMs) {
        super(store);
        this.counts = counts;
        this.writes = writes;
        this.failingPrefix = failingPrefix;
        this.hold = hold;
        this.latencyMs = latencyMs;
    }

    /** Holds a write of a key under the held prefix until its release, as a bucket slow for those keys. */
    private void holdIfChosen(String key) {
        WriteHold waiting = hold.get();
        if (waiting != null) {
            waiting.enter(key);
        }
    }

    /** Answers 500 InternalError to a write of a key under the failing prefix, as a broken bucket would. */
    private void failIfChosen(String key) {
        String prefix = failingPrefix.get();
        if (prefix != null && key != null && key.startsWith(prefix)) {
            throw new S3ProxyException(S3ErrorCode.INTERNAL_ERROR, "writes under " + prefix + " fail (a test's choice)");
        }
    }

    /** Accepted and recorded, not applied: see the class comment. */
    @Override
    public boolean supportsServerSideEncryption() {
        return true;
    }

    private void record(String operation, String key, String sse, String kmsKeyId, Object checksumAlgorithm,
            String sha256, String md5) {
        if (key != null && !key.startsWith(UPLOAD_STATE_PREFIX)) {
            writes.add(new S3Request(operation, key, Optional.ofNullable(sse), Optional.ofNullable(kmsKeyId),
                    Optional.ofNullable(checksumAlgorithm).map(Object::toString), Optional.ofNullable(sha256),
                    Optional.ofNullable(md5)));
        }
    }

    /** A copy of {@code counts} as plain numbers, by operation name; operations never asked for are absent. */
    static Map<String, Long> snapshot(Map<String, LongAdder> counts) {
        Map<String, Long> requests = new TreeMap<>();
        counts.forEach((operation, n) -> requests.put(operation, n.sum()));
        return requests;
    }

    private void count(String operation) {
        counts.computeIfAbsent(operation, o -> new LongAdder()).increment();
        delay();
    }

    /** The round trip of a real bucket, on this request's own thread. */
    private void delay() {
        if (latencyMs == 0) {
            return;
        }
        try {
            Thread.sleep(latencyMs);
        } catch (InterruptedException e) {
            // The server is stopping: answer at once, keep the interrupt for Jetty.
            Thread.currentThread().interrupt();
        }
    }

    /** Counts a request on {@code key} unless it is S3Proxy's own bookkeeping of a multipart upload. */
    private void count(String operation, String key) {
        if (key == null || !key.startsWith(UPLOAD_STATE_PREFIX)) {
            count(operation);
        }
    }

    @Override
    public PutObjectResponse putBlob(PutObjectRequest request, InputStream body) {
        count("PutObject", request.key());
        holdIfChosen(request.key());
        failIfChosen(request.key());
        record("PutObject", request.key(), request.serverSideEncryptionAsString(), request.ssekmsKeyId(),
                request.checksumAlgorithmAsString(), request.checksumSHA256(), request.contentMD5());
        return delegate().putBlob(request, body);
    }

    @Override
    public CopyObjectResponse copyBlob(CopyObjectRequest request) {
        count("CopyObject");
        return delegate().copyBlob(request);
    }

    @Override
    public HeadObjectResponse blobMetadata(HeadObjectRequest request) {
        count("HeadObject", request.key());
        return delegate().blobMetadata(request);
    }

    @Override
    public ResponseInputStream<GetObjectResponse> getBlob(GetObjectRequest request) {
        count("GetObject", request.key());
        return delegate().getBlob(request);
    }

    @Override
    public DeleteObjectResponse removeBlob(DeleteObjectRequest request) {
        count("DeleteObject", request.key());
        return delegate().removeBlob(request);
    }

    @Override
    public DeleteObjectsResponse removeBlobs(DeleteObjectsRequest request) {
        count("DeleteObjects");
        return delegate().removeBlobs(request);
    }

    @Override
    public ListObjectsV2Response list(ListObjectsV2Request request) {
        count("ListObjectsV2");
        return delegate().list(request);
    }

    @Override
    public ListObjectsResponse listV1(ListObjectsRequest request) {
        count("ListObjects");
        return delegate().listV1(request);
    }

    @Override
    public MultipartUpload initiateMultipartUpload(CreateMultipartUploadRequest request) {
        count("CreateMultipartUpload");
        holdIfChosen(request.key());
        failIfChosen(request.key());
        record("CreateMultipartUpload", request.key(), request.serverSideEncryptionAsString(), request.ssekmsKeyId(),
                request.checksumAlgorithmAsString(), null, null);
        return delegate().initiateMultipartUpload(request);
    }

    @Override
    public UploadPartResponse uploadMultipartPart(MultipartUpload upload, UploadPartRequest request, InputStream body) {
        count("UploadPart");
        holdIfChosen(upload.blobName());
        failIfChosen(upload.blobName());
        record("UploadPart", upload.blobName(), null, null, request.checksumAlgorithmAsString(),
                request.checksumSHA256(), request.contentMD5());
        return delegate().uploadMultipartPart(upload, request, body);
    }

    @Override
    public CompleteMultipartUploadResponse completeMultipartUpload(MultipartUpload upload,
            CompleteMultipartUploadRequest request) {
        count("CompleteMultipartUpload");
        holdIfChosen(upload.blobName());
        return delegate().completeMultipartUpload(upload, request);
    }

    @Override
    public void abortMultipartUpload(MultipartUpload upload) {
        count("AbortMultipartUpload");
        delegate().abortMultipartUpload(upload);
    }

    @Override
    public List<software.amazon.awssdk.services.s3.model.MultipartUpload> listMultipartUploads(String bucket) {
        count("ListMultipartUploads");
        return delegate().listMultipartUploads(bucket);
    }
}
