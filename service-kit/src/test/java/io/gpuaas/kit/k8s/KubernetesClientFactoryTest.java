package io.gpuaas.kit.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.micronaut.context.ApplicationContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The client bean every Kubernetes-facing service shares: built from the kubeconfig, closed with the context. */
class KubernetesClientFactoryTest {

    /** The kit's token validator needs an issuer and an audience to start; these contexts verify no token. */
    private static final java.util.Map<String, Object> TOKENS =
            java.util.Map.of("gpuaas.security.issuer", "gpuaas-local", "gpuaas.security.audience", "gpuaas");

    private static final String KUBECONFIG = """
            apiVersion: v1
            kind: Config
            clusters:
            - name: c
              cluster: {server: "https://api.example.test:7443"}
            users:
            - name: u
              user: {token: "t"}
            contexts:
            - name: ctx
              context: {cluster: c, user: u, namespace: gpuaas}
            current-context: ctx
            """;

    @AfterEach
    void forgetKubeconfig() {
        System.clearProperty(Config.KUBERNETES_KUBECONFIG_FILE);
    }

    @Test
    void shouldBuildOneClientFromTheKubeconfigAndCloseItWhenTheContextStops(@TempDir Path dir) throws IOException {
        // fabric8 reads the system property "kubeconfig" as it reads env KUBECONFIG.
        System.setProperty(
                Config.KUBERNETES_KUBECONFIG_FILE,
                Files.writeString(dir.resolve("kubeconfig"), KUBECONFIG).toString());
        KubernetesClient client;
        try (ApplicationContext context = ApplicationContext.run(TOKENS)) {
            client = context.getBean(KubernetesClient.class);

            assertThat(context.getBean(KubernetesClient.class)).isSameAs(client);
            assertThat(client.getMasterUrl()).hasToString("https://api.example.test:7443/");
            assertThat(client.getNamespace()).isEqualTo("gpuaas");
            assertThat(client.getHttpClient().getClass().getPackageName())
                    .isEqualTo(JdkHttpClientFactory.class.getPackageName());
            assertThat(client.getHttpClient().isClosed()).isFalse();
        }
        assertThat(client.getHttpClient().isClosed()).isTrue();
    }

    @Test
    void shouldUseAndLeaveOpenAClientRegisteredBeforeStartWhenTestsBringTheirOwn() {
        try (KubernetesClient own = new KubernetesClientBuilder()
                .withHttpClientFactory(new JdkHttpClientFactory())
                .withConfig(Config.empty())
                .build()) {
            try (ApplicationContext context = ApplicationContext.builder()
                    .properties(TOKENS)
                    .singletons(own)
                    .start()) {
                assertThat(context.getBean(KubernetesClient.class)).isSameAs(own);
                assertThat(context.getBeansOfType(KubernetesClient.class)).hasSize(1);
            }
            assertThat(own.getHttpClient().isClosed()).isFalse();
        }
    }
}
