package io.gpuaas.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.Test;

class KafkaAccessTest {

    @Test
    void shouldLetOnlyBookingServiceWriteCommandsWhenTheTableIsRead() {
        assertThat(KafkaAccess.writers(Topics.BOOKING_COMMANDS)).containsExactly(KafkaPrincipal.BOOKING_SERVICE);
        for (KafkaPrincipal p : KafkaPrincipal.values()) {
            boolean writes =
                    KafkaAccess.acls(p, "gpuaas.").stream().anyMatch(a -> isWrite(a, "gpuaas.booking-commands"));
            assertThat(writes).as(p + " writes commands").isEqualTo(p == KafkaPrincipal.BOOKING_SERVICE);
        }
    }

    @Test
    void shouldLetOnlyMetricsGatewayWriteSamplesWhenTheTableIsRead() {
        assertThat(KafkaAccess.writers(Topics.GPU_SAMPLES)).containsExactly(KafkaPrincipal.METRICS_GATEWAY);
        assertThat(KafkaAccess.acls(KafkaPrincipal.BOOKING_SERVICE, "gpuaas.").stream()
                        .anyMatch(a -> isWrite(a, "gpuaas.gpu-samples")))
                .isFalse();
    }

    @Test
    void shouldGrantSreReadOnEveryTopicAndNoWriteWhenAclsAreDerived() {
        List<AclBinding> sre = KafkaAccess.acls(KafkaPrincipal.SRE, "gpuaas.");
        for (TopicSpec<?, ?> t : Topics.all()) {
            assertThat(sre)
                    .anyMatch(a -> a.pattern().name().equals(t.name("gpuaas."))
                            && a.entry().operation() == AclOperation.READ);
        }
        assertThat(sre)
                .noneMatch(a -> a.entry().operation() == AclOperation.WRITE
                        || a.entry().operation() == AclOperation.CREATE
                        || a.entry().operation() == AclOperation.DELETE);
    }

    @Test
    void shouldNeverGrantWildcardsWhenAclsAreDerived() {
        for (KafkaPrincipal p : KafkaPrincipal.values()) {
            for (AclBinding acl : KafkaAccess.acls(p, "t7.gpuaas.")) {
                assertThat(acl.pattern().name()).as(p + " " + acl).isNotEqualTo("*");
                assertThat(acl.pattern().patternType()).isIn(PatternType.LITERAL, PatternType.PREFIXED);
                assertThat(acl.entry().operation()).isNotEqualTo(AclOperation.ALL);
                assertThat(acl.entry().principal()).isEqualTo(p.principal());
                if (acl.pattern().resourceType() == ResourceType.TOPIC
                        && acl.pattern().patternType() == PatternType.PREFIXED) {
                    assertThat(acl.pattern().name())
                            .as("only Streams internal topics are prefixed")
                            .isEqualTo(p.streamsApplicationId() + "-");
                }
            }
        }
    }

    @Test
    void shouldScopeStreamsGrantsToTheConfiguredApplicationIdWhenOneIsGiven() {
        List<AclBinding> acls = KafkaAccess.acls(KafkaPrincipal.IDLE_RECLAIMER, "t1.gpuaas.", "reclaimer-42");
        assertThat(acls)
                .anyMatch(a -> a.pattern().resourceType() == ResourceType.GROUP
                        && a.pattern().name().equals("reclaimer-42")
                        && a.entry().operation() == AclOperation.READ);
        assertThat(acls)
                .anyMatch(a -> a.pattern().resourceType() == ResourceType.TRANSACTIONAL_ID
                        && a.pattern().name().equals("reclaimer-42-")
                        && a.entry().operation() == AclOperation.WRITE);
        assertThat(acls).noneMatch(a -> a.pattern().name().startsWith("gpuaas-idle-reclaimer"));
    }

    @Test
    void shouldLetOnlyTheReclaimerWriteAndApplyReclaimIntentsWhenTheTableIsRead() {
        assertThat(KafkaAccess.writers(Topics.RECLAIM_INTENTS)).containsExactly(KafkaPrincipal.IDLE_RECLAIMER);
        assertThat(KafkaAccess.readers(Topics.RECLAIM_INTENTS))
                .containsExactlyInAnyOrder(KafkaPrincipal.IDLE_RECLAIMER, KafkaPrincipal.SRE);
        List<AclBinding> acls = KafkaAccess.acls(KafkaPrincipal.IDLE_RECLAIMER, "t1.gpuaas.", "reclaimer-42");
        assertThat(acls)
                .anyMatch(a -> a.pattern().resourceType() == ResourceType.GROUP
                        && a.pattern().patternType() == PatternType.LITERAL
                        && a.pattern().name().equals("reclaimer-42-applier")
                        && a.entry().operation() == AclOperation.READ);
        assertThat(acls)
                .as("the reclaimer writes its outcomes and never reads them back (keeps are booking-service's)")
                .anyMatch(a -> isWrite(a, "t1.gpuaas.reclaim-events"))
                .noneMatch(a -> a.pattern().name().equals("t1.gpuaas.reclaim-events")
                        && a.entry().operation() == AclOperation.READ);
        for (KafkaPrincipal other : List.of(
                KafkaPrincipal.BOOKING_SERVICE, KafkaPrincipal.QUOTA_PROJECTOR, KafkaPrincipal.METRICS_GATEWAY)) {
            assertThat(KafkaAccess.acls(other, "t1.gpuaas."))
                    .as(other.name())
                    .noneMatch(a -> a.pattern().name().equals("t1.gpuaas.reclaim-intents"))
                    .noneMatch(a -> a.pattern().name().endsWith(KafkaAccess.RECLAIM_APPLIER));
        }
    }

    @Test
    void
            shouldLetBookingServiceTheReclaimerAndTheProjectorWriteNoticesAndBookingServiceReadWorkloadsWhenTheTableIsRead() {
        assertThat(KafkaAccess.writers(Topics.NOTICES))
                .containsExactlyInAnyOrder(
                        KafkaPrincipal.BOOKING_SERVICE,
                        KafkaPrincipal.IDLE_RECLAIMER,
                        KafkaPrincipal.QUOTA_PROJECTOR,
                        KafkaPrincipal.METRICS_GATEWAY);
        assertThat(KafkaAccess.readers(Topics.NOTICES))
                .containsExactlyInAnyOrder(
                        KafkaPrincipal.SRE,
                        KafkaPrincipal.BOOKING_SERVICE,
                        KafkaPrincipal.IDLE_RECLAIMER,
                        KafkaPrincipal.QUOTA_PROJECTOR,
                        KafkaPrincipal.METRICS_GATEWAY);
        assertThat(KafkaAccess.acls(KafkaPrincipal.QUOTA_PROJECTOR, "t1.gpuaas."))
                .as("quota-projector reads notices (no group: a replica) and writes its MigLayoutNotReady")
                .anyMatch(a -> a.pattern().name().equals("t1.gpuaas.notices")
                        && a.entry().operation() == AclOperation.READ)
                .anyMatch(a -> a.pattern().name().equals("t1.gpuaas.notices")
                        && a.entry().operation() == AclOperation.WRITE)
                .noneMatch(a -> a.pattern().resourceType() == ResourceType.GROUP);
        assertThat(KafkaAccess.acls(KafkaPrincipal.BOOKING_SERVICE, "t1.gpuaas."))
                .anyMatch(a -> a.pattern().name().equals("t1.gpuaas.kueue-workloads")
                        && a.entry().operation() == AclOperation.READ)
                .noneMatch(a -> a.pattern().name().equals("t1.gpuaas.kueue-workloads")
                        && a.entry().operation() == AclOperation.WRITE);
        assertThat(KafkaAccess.acls(KafkaPrincipal.METRICS_GATEWAY, "t1.gpuaas."))
                .as("metrics-gateway writes BookingUnderused and reads the notices back without a group")
                .anyMatch(a -> a.pattern().name().equals("t1.gpuaas.notices")
                        && a.entry().operation() == AclOperation.WRITE)
                .noneMatch(a -> a.pattern().name().equals("t1.gpuaas.reclaim-keeps"));
        assertThat(KafkaAccess.acls(KafkaPrincipal.BOOKING_SERVICE, "t1.gpuaas."))
                .as("keeps reach idle-reclaimer only as booking-service's decisions, bounded per booking")
                .anyMatch(a -> isWrite(a, "t1.gpuaas.reclaim-keeps"));
        assertThat(KafkaAccess.acls(KafkaPrincipal.IDLE_RECLAIMER, "t1.gpuaas."))
                .noneMatch(a -> isWrite(a, "t1.gpuaas.reclaim-keeps"))
                .anyMatch(a -> a.pattern().name().equals("t1.gpuaas.reclaim-keeps")
                        && a.entry().operation() == AclOperation.READ);
    }

    private static boolean isWrite(AclBinding acl, String topic) {
        return acl.pattern().resourceType() == ResourceType.TOPIC
                && acl.pattern().name().equals(topic)
                && acl.entry().operation() == AclOperation.WRITE;
    }
}
