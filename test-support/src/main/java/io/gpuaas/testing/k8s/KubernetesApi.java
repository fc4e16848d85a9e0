package io.gpuaas.testing.k8s;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.vertx.Protocol;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;

/**
 * An in-memory Kubernetes API: fabric8's mock server in CRUD mode over plain HTTP on
 * 127.0.0.1, with every {@link GpuaasCrd} registered before it is handed out, so namespaced vs
 * cluster scope and the {@code /status} subresource behave as on a real cluster.
 */
public final class KubernetesApi implements AutoCloseable {

    /** Namespace the returned clients (and the written kubeconfig) default to. */
    public static final String DEFAULT_NAMESPACE = "default";

    // Held so the level sticks: java.util.logging keeps loggers weakly. The mock logs every request at INFO.
    private static final java.util.logging.Logger MOCK_LOG = quiet("io.fabric8.mockwebserver.MockWebServer");

    private final KubernetesMockServer server;
    private final DiscoveryDispatcher dispatcher;
    private final KubernetesClient client;
    private final ApiServerFaults faults;

    private KubernetesApi(KubernetesMockServer server, DiscoveryDispatcher dispatcher, ApiServerFaults faults) {
        this.server = server;
        this.dispatcher = dispatcher;
        this.faults = faults;
        this.client = newClient();
    }

    /** Starts on an ephemeral port. */
    public static KubernetesApi start() {
        return start(0);
    }

    /** Starts on {@code 127.0.0.1:port} (0 = ephemeral) and registers the gpuaas CRDs. */
    public static KubernetesApi start(int port) {
        MockWebServer web = new MockWebServer();
        // Vert.x 4.5 (the mock's server) calls a Netty HTTP/2 method that the Netty 4.2 of the
        // Micronaut BOM lacks; a JDK client's h2c upgrade would kill the connection. HTTP/1.1 only.
        web.setHttp2ClearTextEnabled(false);
        web.setProtocols(List.of(Protocol.HTTP_1_1));
        ApiServerFaults faults = new ApiServerFaults();
        DiscoveryDispatcher dispatcher = new DiscoveryDispatcher(faults);
        KubernetesMockServer server = new KubernetesMockServer(new Context(), web, new HashMap<>(), dispatcher, false);
        server.init(InetAddress.getLoopbackAddress(), port);
        KubernetesApi api = new KubernetesApi(server, dispatcher, faults);
        try {
            api.registerCrds();
        } catch (RuntimeException e) {
            api.close();
            throw e;
        }
        return api;
    }

    /** {@code http://127.0.0.1:<port>}, the API server address. */
    public String url() {
        return "http://" + server.getHostName() + ":" + server.getPort();
    }

    public int port() {
        return server.getPort();
    }

    /** The shared client (JDK HTTP client, namespace {@value #DEFAULT_NAMESPACE}); closed with this API. */
    public KubernetesClient client() {
        return client;
    }

    /** A new client bound to this server; the caller closes it. */
    public KubernetesClient newClient() {
        return new KubernetesClientBuilder()
                .withConfig(config())
                .withHttpClientFactory(new JdkHttpClientFactory())
                .build();
    }

    /** The client configuration, for code that builds its own client (e.g. a Micronaut factory). */
    public Config config() {
        return new ConfigBuilder(Config.empty())
                .withMasterUrl(url())
                .withNamespace(DEFAULT_NAMESPACE)
                .withOauthToken("gpuaas-local")
                .withRequestRetryBackoffLimit(0)
                .withHttp2Disable(true)
                .build();
    }

    /** {@code client().genericKubernetesResources(crd.context())}. */
    public MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>>
            resources(GpuaasCrd crd) {
        return client.genericKubernetesResources(crd.context());
    }

    /**
     * Writes a kubeconfig pointing at this server (context {@code gpuaas-local}, namespace
     * {@value #DEFAULT_NAMESPACE}). Another JVM reads it via {@code KUBECONFIG=<file>}; kubectl too.
     */
    public Path writeKubeconfig(Path file) {
        String yaml = """
            apiVersion: v1
            kind: Config
            clusters:
            - name: gpuaas-local
              cluster:
                server: %s
            users:
            - name: gpuaas-local
              user:
                token: gpuaas-local
            contexts:
            - name: gpuaas-local
              context:
                cluster: gpuaas-local
                user: gpuaas-local
                namespace: %s
            current-context: gpuaas-local
            """.formatted(url(), DEFAULT_NAMESPACE);
        try {
            if (file.toAbsolutePath().getParent() != null) {
                Files.createDirectories(file.toAbsolutePath().getParent());
            }
            return Files.writeString(file, yaml);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write kubeconfig " + file, e);
        }
    }

    /**
     * A slow API server: from now on the answer to every {@code method} request whose path contains
     * {@code pathPart} (e.g. {@code "PUT"}, {@code "/rayclusters/train"}) arrives {@code delay} late. The request
     * itself takes effect at once, as a write the server applied before its response was held up in the network.
     * Other requests are answered as before. Until {@link #clearDelays()} or {@link #reset()}.
     */
    public void delayResponses(String method, String pathPart, java.time.Duration delay) {
        dispatcher.delay(method, pathPart, delay);
    }

    /** Answers every request at once again. */
    public void clearDelays() {
        dispatcher.clearDelays();
    }

    /**
     * Forgets every stored object (namespaces included) and every delay, and registers the gpuaas CRDs again, so
     * one server can give each test method a clean API. Close open watches and informers first.
     */
    public void reset() {
        dispatcher.clearDelays();
        server.reset();
        registerCrds();
    }

    /** The fault switch of this server (writes answered with an error while it is on). */
    public ApiServerFaults faults() {
        return faults;
    }

    /** The underlying mock server, for expectations beyond CRUD. */
    public KubernetesMockServer server() {
        return server;
    }

    @Override
    public void close() {
        client.close();
        server.destroy();
    }

    @Override
    public String toString() {
        return "KubernetesApi[" + url() + "]";
    }

    private void registerCrds() {
        for (GpuaasCrd crd : GpuaasCrd.values()) {
            client.apiextensions()
                    .v1()
                    .customResourceDefinitions()
                    .resource(loadCrd(crd))
                    .create();
        }
    }

    private static java.util.logging.Logger quiet(String name) {
        java.util.logging.Logger logger = java.util.logging.Logger.getLogger(name);
        if (!Boolean.getBoolean("gpuaas.test.k8s.log-requests")) {
            logger.setLevel(java.util.logging.Level.WARNING);
        }
        return logger;
    }

    /** The project-written CRD for one resource, parsed from the classpath. */
    public static CustomResourceDefinition loadCrd(GpuaasCrd crd) {
        try (InputStream in = KubernetesApi.class.getResourceAsStream(crd.resourcePath())) {
            if (in == null) {
                throw new IllegalStateException("missing CRD resource " + crd.resourcePath());
            }
            return new KubernetesSerialization().unmarshal(in, CustomResourceDefinition.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
