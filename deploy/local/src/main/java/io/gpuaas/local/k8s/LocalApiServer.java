package io.gpuaas.local.k8s;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.gpuaas.testing.k8s.GpuaasCrd;
import io.gpuaas.testing.k8s.KubernetesApi;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;

/**
 * The local stack's Kubernetes API: the same fabric8 CRUD mock and project CRDs as test-support's
 * {@link KubernetesApi}, with discovery answered as well so kubectl works against it.
 */
public final class LocalApiServer implements AutoCloseable {

    private final KubernetesMockServer server;
    private final KubernetesClient client;

    private LocalApiServer(KubernetesMockServer server) {
        this.server = server;
        this.client = new KubernetesClientBuilder().withConfig(config()).withHttpClientFactory(new JdkHttpClientFactory())
                .build();
    }

    /** Starts on 127.0.0.1:{@code port} (0 = ephemeral) with every gpuaas CRD registered. */
    public static LocalApiServer start(int port) {
        KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                new DiscoveryDispatcher(), false);
        server.init(InetAddress.getLoopbackAddress(), port);
        LocalApiServer api = new LocalApiServer(server);
        try {
            for (GpuaasCrd crd : GpuaasCrd.values()) {
                api.client.apiextensions().v1().customResourceDefinitions().resource(KubernetesApi.loadCrd(crd)).create();
            }
            return api;
        } catch (RuntimeException e) {
            api.close();
            throw e;
        }
    }

    public String url() {
        return "http://127.0.0.1:" + server.getPort();
    }

    public int port() {
        return server.getPort();
    }

    public KubernetesClient client() {
        return client;
    }

    private Config config() {
        return new ConfigBuilder(Config.empty()).withMasterUrl(url()).withNamespace("default")
                .withOauthToken("gpuaas-local").withRequestRetryBackoffLimit(0).build();
    }

    /** A kubeconfig for this server (context {@code gpuaas-local}); services and kubectl read it via KUBECONFIG. */
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
                    namespace: default
                current-context: gpuaas-local
                """.formatted(url());
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            return Files.writeString(file, yaml);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write kubeconfig " + file, e);
        }
    }

    @Override
    public void close() {
        client.close();
        server.destroy();
    }
}
