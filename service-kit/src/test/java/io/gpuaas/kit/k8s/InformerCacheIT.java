package io.gpuaas.kit.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.gpuaas.kit.runtime.ComponentHealth.State;
import io.gpuaas.testing.k8s.KubernetesApi;
import io.gpuaas.testing.k8s.KubernetesApiExtension;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The kit's informer cache on the in-memory API server (CRUD mode): faults of handlers, sources and the server. */
@ExtendWith(KubernetesApiExtension.class)
class InformerCacheIT {

    private static final String BY_TEAM = "team";

    /** ConfigMaps of {@code namespace}, indexed by their {@code team} label: built unstarted, as a service does. */
    private static SharedIndexInformer<ConfigMap> configMaps(KubernetesClient client, String namespace) {
        SharedIndexInformer<ConfigMap> informer =
                client.configMaps().inNamespace(namespace).runnableInformer(0);
        informer.addIndexers(
                Map.of(BY_TEAM, cm -> List.of(cm.getMetadata().getLabels().getOrDefault(BY_TEAM, "-"))));
        return informer;
    }

    /** Records what it saw; throws on objects named {@code poison-*}, as a handler with a bug would. */
    private static final class Brittle implements ResourceEventHandler<ConfigMap> {
        final Set<String> seen = ConcurrentHashMap.newKeySet();

        @Override
        public void onAdd(ConfigMap cm) {
            if (cm.getMetadata().getName().startsWith("poison")) {
                throw new IllegalStateException(
                        "cannot handle " + cm.getMetadata().getName());
            }
            seen.add(cm.getMetadata().getName());
        }

        @Override
        public void onUpdate(ConfigMap oldCm, ConfigMap cm) {
            onAdd(cm);
        }

        @Override
        public void onDelete(ConfigMap cm, boolean unknown) {
            seen.remove(cm.getMetadata().getName());
        }
    }

    private static ConfigMap configMap(String namespace, String name, String team) {
        return new ConfigMapBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(namespace)
                .withLabels(Map.of(BY_TEAM, team))
                .endMetadata()
                .withData(Map.of("k", "v"))
                .build();
    }

    @Test
    void shouldKeepTheCacheAndReportTheFailureWhenTheHandlerThrows(KubernetesApi api) {
        PrometheusRegistry registry = new PrometheusRegistry();
        Brittle handler = new Brittle();
        try (KubernetesClient client = api.newClient()) {
            client.resource(configMap("handler", "before", "a")).create();
            InformerCache<ConfigMap> cache = InformerCache.<ConfigMap>builder("test-cache")
                    .kind("configmaps", () -> configMaps(client, "handler"), handler)
                    .metrics(registry)
                    .build();
            cache.start();
            await().atMost(Duration.ofSeconds(20)).until(() -> cache.health().ready());

            client.resource(configMap("handler", "poison-1", "a")).create();
            client.resource(configMap("handler", "after", "b")).create();

            await().atMost(Duration.ofSeconds(10)).until(() -> handler.seen.contains("after"));
            assertThat(cache.list("configmaps"))
                    .as("the object the handler failed on stays cached, and so do the ones after it")
                    .extracting(cm -> cm.getMetadata().getName())
                    .containsExactlyInAnyOrder("before", "poison-1", "after");
            assertThat(cache.byIndex("configmaps", BY_TEAM, "a"))
                    .extracting(cm -> cm.getMetadata().getName())
                    .containsExactlyInAnyOrder("before", "poison-1");
            assertThat(cache.get("configmaps", "handler/after")).isPresent();
            assertThat(cache.handlerFailures()).isEqualTo(1);
            assertThat(cache.health().state())
                    .as("a handler failure is counted, not a reason to leave traffic")
                    .isEqualTo(State.RUNNING);
            assertThat(cache.health().detail()).contains("1 handler failures", "handler/poison-1", "cannot handle");
            assertThat(counter(registry, InformerMetrics.HANDLER_FAILURES)).isEqualTo(1.0);

            client.resource(configMap("handler", "poison-1", "a")).delete();
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> cache.get("configmaps", "handler/poison-1").isEmpty());
            assertThat(cache.byIndex("configmaps", BY_TEAM, "a")).hasSize(1);
            cache.stop(Duration.ofSeconds(2));
            assertThat(cache.health().state()).isEqualTo(State.STOPPED);
        }
    }

    @Test
    void shouldBuildItsSourcesAgainWhenOneFailedAtStart(KubernetesApi api) {
        AtomicInteger calls = new AtomicInteger();
        try (KubernetesClient client = api.newClient()) {
            client.resource(configMap("sources", "one", "a")).create();
            InformerCache<ConfigMap> cache = InformerCache.<ConfigMap>builder("retrying-cache")
                    .kind("configmaps", () -> {
                        if (calls.incrementAndGet() == 1) {
                            throw new IllegalStateException("CRD lookup: 503");
                        }
                        return configMaps(client, "sources");
                    })
                    .build();
            cache.start();
            await().atMost(Duration.ofSeconds(10)).until(() -> calls.get() >= 1);
            await().atMost(Duration.ofSeconds(20)).until(() -> cache.health().ready());
            assertThat(calls.get()).isEqualTo(2);
            assertThat(cache.health().restarts()).isEqualTo(1);
            assertThat(cache.list("configmaps")).hasSize(1);
            cache.stop(Duration.ofSeconds(2));
        }
    }

    @Test
    void shouldListAgainUntilTheApiServerAnswersAndWatchAgainWhenItComesBack() throws Exception {
        KubernetesApi gone = KubernetesApi.start();
        int port = gone.port();
        KubernetesClient client = gone.newClient();
        gone.close();
        PrometheusRegistry registry = new PrometheusRegistry();
        InformerCache<ConfigMap> cache = InformerCache.<ConfigMap>builder("reconnecting-cache")
                .kind("configmaps", () -> configMaps(client, "reconnect"))
                .metrics(registry)
                .build();
        try {
            cache.start();
            await().atMost(Duration.ofSeconds(20)).until(() -> counter(registry, InformerMetrics.WATCH_ERRORS) > 0);
            assertThat(cache.health().state())
                    .as("a list that fails before the first sync: fabric8's default would stop the informer")
                    .isEqualTo(State.RECOVERING);
            assertThat(cache.synced()).isFalse();

            try (KubernetesApi first = KubernetesApi.start(port)) {
                first.client().resource(configMap("reconnect", "first", "a")).create();
                await().atMost(Duration.ofSeconds(60))
                        .until(() -> cache.health().ready());
                // Listed, or (when the list ran before the create) delivered by the watch that made it ready.
                await().atMost(Duration.ofSeconds(20))
                        .until(() -> cache.get("configmaps", "reconnect/first").isPresent());
            }
            await().atMost(Duration.ofSeconds(20)).until(() -> !cache.watching("configmaps"));
            assertThat(cache.health().state()).isEqualTo(State.RECOVERING);
            assertThat(cache.health().ready()).isFalse();

            try (KubernetesApi second = KubernetesApi.start(port)) {
                second.client().resource(configMap("reconnect", "second", "b")).create();
                await().atMost(Duration.ofSeconds(60))
                        .until(() -> cache.health().ready());
                await().atMost(Duration.ofSeconds(10))
                        .until(() -> cache.get("configmaps", "reconnect/second").isPresent());
                cache.stop(Duration.ofSeconds(2));
            }
        } finally {
            client.close();
        }
    }

    private static double counter(PrometheusRegistry registry, String name) {
        String family = name.replace("_total", "");
        return registry.scrape().stream()
                .filter(s -> s.getMetadata().getName().equals(family))
                .map(CounterSnapshot.class::cast)
                .flatMap(s -> s.getDataPoints().stream())
                .mapToDouble(CounterSnapshot.CounterDataPointSnapshot::getValue)
                .sum();
    }
}
