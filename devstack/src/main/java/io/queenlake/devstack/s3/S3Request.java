package io.queenlake.devstack.s3;

import java.util.Optional;

/**
 * One write request the embedded server served ({@code PutObject}, {@code CreateMultipartUpload},
 * {@code UploadPart}), with the headers a test wants to see sent: server-side encryption, its KMS
 * key id, the flexible checksum ({@code x-amz-checksum-*}, which S3Proxy verifies against the body)
 * and {@code Content-MD5}. The server accepts the encryption headers and stores plain bytes: it shows
 * what a client asked for, not that anything was encrypted.
 */
public record S3Request(
        String operation,
        String key,
        Optional<String> serverSideEncryption,
        Optional<String> kmsKeyId,
        Optional<String> checksumAlgorithm,
        Optional<String> checksumSha256,
        Optional<String> contentMd5) {

    /** True for the requests that create an object's bytes: a single put or a multipart upload's creation. */
    public boolean createsObject() {
        return operation.equals("PutObject") || operation.equals("CreateMultipartUpload");
    }
}
