package io.gpuaas.kit.security.forwarded;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * {@code GET /apis/user.openshift.io/v1/users/~} with the user's own token: OpenShift answers with the token's user
 * and the groups the API server itself resolved for it (Group objects, including those synced from LDAP, plus the
 * virtual {@code system:authenticated*} groups). The proxy's tokens carry the {@code user:info} scope, which allows
 * exactly this call, so the service needs no RBAC of its own and no service-account token.
 */
public final class OpenShiftUserLookup implements UserLookup {

    static final String PATH = "/apis/user.openshift.io/v1/users/~";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http;
    private final URI uri;
    private final Duration timeout;

    public OpenShiftUserLookup(String apiServer, SSLContext tls, Duration timeout) {
        this.http =
                HttpClient.newBuilder().sslContext(tls).connectTimeout(timeout).build();
        this.uri = URI.create(apiServer.replaceAll("/+$", "") + PATH);
        this.timeout = timeout;
    }

    @Override
    public CompletableFuture<Answer> lookup(String token) {
        HttpRequest request = HttpRequest.newBuilder(uri)
                .timeout(timeout)
                .header("Authorization", "Bearer " + token)
                .header("Accept", "application/json")
                .GET()
                .build();
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray())
                .thenApply(OpenShiftUserLookup::answer)
                // Never the exception's message: it may hold the URI, never the token, but say only what failed.
                .exceptionally(e -> new Unavailable("no answer from the API server"));
    }

    static Answer answer(HttpResponse<byte[]> response) {
        int status = response.statusCode();
        if (status == 401 || status == 403) {
            return new Refused(status);
        }
        if (status != 200) {
            return new Unavailable("API server answered " + status);
        }
        try {
            JsonNode user = JSON.readTree(response.body());
            String name = user.path("metadata").path("name").asText("");
            if (name.isEmpty()) {
                return new Unavailable("user without a name");
            }
            List<String> groups = new ArrayList<>();
            user.path("groups").forEach(g -> groups.add(g.asText()));
            return new User(name, List.copyOf(groups));
        } catch (IOException e) {
            return new Unavailable("unreadable user");
        }
    }

    /** TLS trusting the PEM certificates in {@code caFile} only, or the JVM's defaults when there is none. */
    public static SSLContext trusting(Path caFile) throws IOException, GeneralSecurityException {
        if (caFile == null) {
            return SSLContext.getDefault();
        }
        KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
        store.load(null, null);
        try (InputStream in = Files.newInputStream(caFile)) {
            int i = 0;
            for (Certificate cert : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                store.setCertificateEntry("ca-" + i++, cert);
            }
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(store);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }
}
