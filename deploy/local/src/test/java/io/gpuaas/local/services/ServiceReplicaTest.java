package io.gpuaas.local.services;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ServiceReplicaTest {

    private static ServiceSpec spec(String name) {
        return ServiceSpec.ALL.stream()
                .filter(s -> s.name().equals(name))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void shouldGiveEveryReplicaOfEveryServiceItsOwnPortWhenTheDocumentedPortsAreUsed() {
        List<Integer> ports = ServiceReplica.of(ServiceSpec.ALL, ServiceReplica.MAX_REPLICAS).stream()
                .map(r -> r.port(8080 + r.spec().portOffset()))
                .toList();

        assertThat(ports).doesNotHaveDuplicates().hasSize(4 * ServiceReplica.MAX_REPLICAS);
        assertThat(new ServiceReplica(spec("booking-service"), 2).port(8080)).isEqualTo(8090);
        assertThat(new ServiceReplica(spec("metrics-gateway"), 2).port(8083)).isEqualTo(8093);
    }

    @Test
    void shouldNameTheFirstReplicaAsTheServiceAndTellTheOthersApartWhenStarted() {
        ServiceReplica second = new ServiceReplica(spec("quota-projector"), 2);

        assertThat(new ServiceReplica(spec("quota-projector"), 1).name()).isEqualTo("quota-projector");
        assertThat(second.name()).isEqualTo("quota-projector-2");
        assertThat(second.environment()).containsEntry("HOSTNAME", "quota-projector-2");
    }
}
