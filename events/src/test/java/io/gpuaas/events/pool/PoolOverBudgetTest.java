package io.gpuaas.events.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class PoolOverBudgetTest {

    @Test
    void shouldLetOverBudgetTenantsBorrowOnlyOnPoolsThatSaySo() throws IOException {
        PoolCatalog catalog = PoolCatalog.read(new ByteArrayInputStream("""
                [{"id": "h200", "flavor": "h200", "resource": "nvidia.com/gpu", "capacity": 8,
                  "gpuModel": "NVIDIA H200", "overBudget": {"borrow": true}},
                 {"id": "a100", "flavor": "a100", "resource": "nvidia.com/gpu", "capacity": 8,
                  "gpuModel": "NVIDIA A100", "overBudget": {"borrow": false}},
                 {"id": "l40", "flavor": "l40", "resource": "nvidia.com/gpu", "capacity": 8, "gpuModel": "NVIDIA L40S"}]""".getBytes(StandardCharsets.UTF_8)));

        assertThat(catalog.pools().stream().filter(Pool::overBudgetMayBorrow).map(Pool::id))
                .containsExactly("h200");
        assertThat(catalog.find("l40").orElseThrow().overBudget()).isNull();
    }

    @Test
    void shouldKeepThePolicyWhenAPoolIsCopiedWithNewPricesOrApproval() {
        Pool pool = new Pool("h200", "h200", "nvidia.com/gpu", 8, "NVIDIA H200", null)
                .withOverBudget(new PoolOverBudget(true));

        assertThat(pool.withPrices(List.of()).overBudgetMayBorrow()).isTrue();
        assertThat(pool.withApproval(null).overBudgetMayBorrow()).isTrue();
    }
}
