package io.gpuaas.kit.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import io.micronaut.context.ApplicationContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one pool catalog bean booking-service, quota-projector and metrics-gateway share. */
class PoolCatalogFactoryTest {

    /** The kit's token validator needs an issuer and an audience to start; these contexts verify no token. */
    private static final Map<String, Object> TOKENS =
            Map.of("gpuaas.security.issuer", "gpuaas-local", "gpuaas.security.audience", "gpuaas");

    @Test
    void shouldServeThePoolsOfTheFileWhenGpuaasPoolsFileNamesOne(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("pools.json"), """
                [{"id": "a100", "flavor": "a100", "resource": "nvidia.com/gpu", "capacity": 4,
                  "gpuModel": "NVIDIA A100 80GB PCIe", "noShowGrace": "PT10M"}]
                """);

        try (ApplicationContext context = ApplicationContext.run(withPoolsFile(file.toString()))) {
            PoolCatalog pools = context.getBean(PoolCatalog.class);

            assertThat(pools.pools()).extracting(Pool::id, Pool::capacity).containsExactly(tuple("a100", 4));
            assertThat(context.getBean(PoolCatalog.class)).isSameAs(pools);
        }
    }

    @Test
    void shouldServeTheShippedPoolsWhenNoFileIsNamed() {
        List<Pool> shipped = PoolCatalog.load(Optional.empty()).pools();
        for (Map<String, Object> properties : List.of(TOKENS, withPoolsFile(" "))) {
            try (ApplicationContext context = ApplicationContext.run(properties)) {
                assertThat(context.getBean(PoolCatalog.class).pools()).isEqualTo(shipped);
            }
        }
    }

    private static Map<String, Object> withPoolsFile(String value) {
        Map<String, Object> properties = new HashMap<>(TOKENS);
        properties.put("gpuaas.pools-file", value);
        return properties;
    }
}
