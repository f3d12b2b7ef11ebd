package io.queenlake.devstack.s3;

import java.time.Duration;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/** AWS SDK v2 clients for an {@link EmbeddedS3}, configured as any standard S3 user would. */
final class SdkClients {

    private SdkClients() {}

    /** Path-style, us-east-1, SigV4 with the server's own key pair. */
    static S3Client of(EmbeddedS3 s3) {
        return signedWith(s3, s3.accessKey(), s3.secretKey());
    }

    /**
     * Same client without the SDK's retries: a request retried after a dropped connection or a
     * timeout reaches the server twice and is rightly counted twice, so a test of the counts
     * would then fail with a miscount instead of the failure that caused the retry.
     */
    static S3Client notRetrying(EmbeddedS3 s3) {
        return builder(s3, s3.accessKey(), s3.secretKey())
                .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()))
                .build();
    }

    /** Same client, signing with any key pair (to show what the server refuses). */
    static S3Client signedWith(EmbeddedS3 s3, String accessKey, String secretKey) {
        return builder(s3, accessKey, secretKey).build();
    }

    private static S3ClientBuilder builder(EmbeddedS3 s3, String accessKey, String secretKey) {
        return S3Client.builder()
                .endpointOverride(s3.endpoint())
                .forcePathStyle(true)
                .region(Region.of(EmbeddedS3.REGION))
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey)))
                .httpClientBuilder(UrlConnectionHttpClient.builder()
                        .connectionTimeout(Duration.ofSeconds(2))
                        .socketTimeout(Duration.ofSeconds(30)));
    }
}
