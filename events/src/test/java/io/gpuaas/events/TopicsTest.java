package io.gpuaas.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.common.internals.Topic;
import org.junit.jupiter.api.Test;

class TopicsTest {

    @Test
    void shouldDeclareValidTopicsWhenTheRegistryIsLoaded() {
        for (TopicSpec<?, ?> spec : Topics.all()) {
            String name = spec.name(Topics.DEFAULT_PREFIX);
            Topic.validate(name);
            assertThat(spec.partitions()).as(name).isPositive();
            assertThat(spec.keySerde()).as(name).isNotNull();
            assertThat(spec.valueSerde()).as(name).isNotNull();
            assertThat(spec.configs()).as(name).containsKey("cleanup.policy");
        }
    }

    @Test
    void shouldKeepCompactedTopicsForeverWhenTheyHoldLatestState() {
        for (TopicSpec<?, ?> spec : Topics.all()) {
            if (spec.compacted()) {
                assertThat(spec.retention()).as(spec.baseName()).isNull();
                assertThat(spec.configs())
                        .as(spec.baseName())
                        .containsEntry("cleanup.policy", "compact")
                        .doesNotContainKey("retention.ms");
            } else {
                assertThat(spec.retention()).as(spec.baseName()).isNotNull().isPositive();
                assertThat(spec.configs())
                        .as(spec.baseName())
                        .containsEntry("cleanup.policy", "delete")
                        .containsEntry(
                                "retention.ms", Long.toString(spec.retention().toMillis()));
            }
        }
        assertThat(Topics.all().stream().filter(TopicSpec::compacted).map(TopicSpec::baseName))
                .containsExactlyInAnyOrder(
                        "bookings", "waitlist", "budgets", "quota-state", "usage-ledger", "webhooks");
    }

    @Test
    void shouldNameEveryTopicOnceWhenAnyPrefixIsUsed() {
        Set<String> names = new HashSet<>();
        for (TopicSpec<?, ?> spec : Topics.all()) {
            assertThat(names.add(spec.name("prod."))).as(spec.baseName()).isTrue();
        }
        assertThat(names).contains("prod.dead-letter", "prod.gpu-samples");
    }

    @Test
    void shouldCarryEveryEventTypeOnExactlyOneTopicWhenTheRegistryIsComplete() {
        for (Class<?> recordClass : EventTypes.all().values()) {
            List<String> topics = Topics.all().stream()
                    .filter(spec -> EventSerdesTest.genericReader(spec)
                            .filter(d -> d.baseType().isAssignableFrom(recordClass))
                            .isPresent())
                    .map(TopicSpec::baseName)
                    .toList();
            assertThat(topics).as(recordClass.getName()).hasSize(1);
        }
    }

    @Test
    void shouldListTheDesignTopicsWhenComparedWithDesignMd() {
        assertThat(Topics.all())
                .extracting(TopicSpec::baseName)
                .containsExactly(
                        "booking-commands",
                        "booking-events",
                        "bookings",
                        "waitlist",
                        "budgets",
                        "budget-commands",
                        "kueue-workloads",
                        "gpu-samples",
                        "quota-state",
                        "reclaim-events",
                        "reclaim-intents",
                        "reclaim-keeps",
                        "tenant-utilization",
                        "usage-ledger",
                        "notices",
                        "webhooks",
                        "dead-letter");
    }
}
