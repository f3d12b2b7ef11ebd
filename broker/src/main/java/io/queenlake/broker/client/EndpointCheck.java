package io.queenlake.broker.client;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * Whether an {@code http(s)://host[:port]} URL reaches a server that speaks its scheme, in seconds:
 * a TCP connection, then a TLS handshake ({@code https}) or one {@code HEAD /} whose answer must
 * start like HTTP ({@code http}). The start probe runs it on {@code QUEEN_URL} and
 * {@code QUEEN_S3_ENDPOINT} before the clients that retry for a minute (the S3 file system's) meet
 * them, so a refused connection or TLS on the wrong side is named at once. It lives here because
 * the broker's URL is one of the two it checks; it knows nothing of Queen or S3.
 */
public final class EndpointCheck {

    private static final byte TLS_ALERT = 0x15;
    private static final byte TLS_HANDSHAKE = 0x16;

    /** What is wrong with an endpoint, as the end of a sentence whose subject names it. */
    public record Problem(String what, Fix fix, Optional<URI> otherScheme) {

        static Problem address(String what) {
            return new Problem(what, Fix.ADDRESS, Optional.empty());
        }

        static Problem scheme(String what, URI url, String scheme) {
            return new Problem(what, Fix.SCHEME, Optional.of(URI.create(scheme + "://" + url.getRawAuthority())));
        }

        /**
         * {@code "<subject> <what>: <what to do>."}, e.g. "the S3 endpoint http://h:9000 speaks TLS on
         * h:9000, not plain HTTP: write https://h:9000 in QUEEN_S3_ENDPOINT."
         */
        public String sentence(String subject, String setting) {
            String todo = switch (fix) {
                case SCHEME -> "write " + otherScheme.orElseThrow() + " in " + setting;
                case ADDRESS -> "check the host and port in " + setting + " and that the server is up";
                case TRUST -> "make this JVM trust its certificate (javax.net.ssl.trustStore) or check " + setting;
            };
            return subject + " " + what + ": " + todo + ".";
        }
    }

    /** What the sentence tells the user to do. */
    public enum Fix {
        /** The server speaks the other scheme: {@link Problem#otherScheme()}. */
        SCHEME,
        /** Nothing (usable) answers at that host and port. */
        ADDRESS,
        /** The TLS handshake failed on the certificate. */
        TRUST
    }

    private EndpointCheck() {}

    /** The problem of {@code url}, or empty when it accepts a connection and speaks its scheme. */
    public static Optional<Problem> problem(URI url, Duration timeout) {
        boolean tls = "https".equalsIgnoreCase(url.getScheme());
        String host = url.getHost();
        int port = url.getPort() >= 0 ? url.getPort() : tls ? 443 : 80;
        String where = (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
        int millis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
        try (Socket socket = new Socket()) {
            try {
                socket.connect(new InetSocketAddress(host, port), millis);
            } catch (UnknownHostException e) {
                return Optional.of(Problem.address("names the host " + host + ", which does not resolve"));
            } catch (ConnectException e) {
                return Optional.of(Problem.address("refused the connection (nothing listens on " + where + ")"));
            } catch (SocketTimeoutException | NoRouteToHostException e) {
                return Optional.of(Problem.address("did not accept a connection on " + where + " within "
                        + seconds(timeout) + " (a wrong host, or a firewall)"));
            }
            socket.setSoTimeout(millis);
            return tls ? handshake(socket, host, port, where, url, timeout) : plainAnswer(socket, where, url, timeout);
        } catch (IOException e) {
            return Optional.of(Problem.address("could not be reached on " + where + " (" + describe(e) + ")"));
        }
    }

    private static Optional<Problem> handshake(Socket socket, String host, int port, String where, URI url,
            Duration timeout) throws IOException {
        try (SSLSocket ssl = (SSLSocket) ((SSLSocketFactory) SSLSocketFactory.getDefault())
                .createSocket(socket, host, port, false)) {
            ssl.startHandshake();
            return Optional.empty();
        } catch (SocketTimeoutException e) {
            return Optional.of(Problem.scheme("did not answer a TLS handshake on " + where + " within " + seconds(timeout)
                    + ", as a plain HTTP port does", url, "http"));
        } catch (SSLException e) {
            String text = describe(e);
            if (text.contains("PKIX") || text.contains("certificate") || text.contains("No subject alternative")) {
                return Optional.of(new Problem("presented a certificate on " + where + " that this JVM does not accept ("
                        + text.split(":", 2)[0] + ")", Fix.TRUST, Optional.empty()));
            }
            if (text.contains("plaintext") || text.contains("Unsupported or unrecognized SSL message")
                    || text.contains("Remote host terminated the handshake")) {
                return Optional.of(Problem.scheme("does not speak TLS on " + where + " (" + text + ")", url, "http"));
            }
            return Optional.of(Problem.address("failed the TLS handshake on " + where + " (" + text + ")"));
        }
    }

    private static Optional<Problem> plainAnswer(Socket socket, String where, URI url, Duration timeout) throws IOException {
        String request = "HEAD / HTTP/1.1\r\nHost: " + where + "\r\nConnection: close\r\n\r\n";
        socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
        byte[] first = new byte[5];
        int read;
        try {
            read = readUpTo(socket.getInputStream(), first);
        } catch (SocketTimeoutException e) {
            return Optional.of(Problem.address("did not answer an HTTP request on " + where + " within " + seconds(timeout)));
        } catch (IOException e) {
            // A TLS server resets a connection that sent it plain text.
            return Optional.of(Problem.scheme("dropped an HTTP request on " + where + " (" + describe(e)
                    + "), as a TLS port does", url, "https"));
        }
        if (read > 0 && (first[0] == TLS_ALERT || first[0] == TLS_HANDSHAKE)) {
            return Optional.of(Problem.scheme("speaks TLS on " + where + ", not plain HTTP", url, "https"));
        }
        if (read <= 0) {
            return Optional.of(Problem.scheme("closed the connection on " + where + " without an HTTP answer, as a TLS"
                    + " port does", url, "https"));
        }
        if (read < 5 || !new String(first, StandardCharsets.US_ASCII).equals("HTTP/")) {
            return Optional.of(Problem.address("answered an HTTP request on " + where + " with something that is not HTTP"));
        }
        return Optional.empty();
    }

    /** Reads until {@code into} is full or the stream ends; returns the bytes read, -1 when none came. */
    private static int readUpTo(InputStream in, byte[] into) throws IOException {
        int n = 0;
        while (n < into.length) {
            int r = in.read(into, n, into.length - n);
            if (r < 0) {
                break;
            }
            n += r;
        }
        return n == 0 ? -1 : n;
    }

    private static String seconds(Duration timeout) {
        return timeout.toMillis() % 1000 == 0 ? timeout.toSeconds() + " s" : timeout.toMillis() + " ms";
    }

    private static String describe(IOException e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
