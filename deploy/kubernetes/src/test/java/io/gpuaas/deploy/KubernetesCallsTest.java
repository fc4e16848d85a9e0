package io.gpuaas.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The static scan behind the RBAC check finds the calls, and the verbs they need, in the shapes the services use. */
class KubernetesCallsTest {

    @Test
    void shouldNeedListAndWatchWhenAnInformerIsStarted() {
        List<KubernetesCalls.Call> calls = KubernetesCalls.inCode(
                "A.java",
                "informer = client.pods().inAnyNamespace().withLabel(\"x\", \"y\")\n    .inform(handler, 0L);");
        assertThat(calls).singleElement().satisfies(c -> {
            assertThat(c.verbs()).containsExactly("list", "watch");
            assertThat(c.line()).isEqualTo(1);
        });
    }

    @Test
    void shouldNeedGetAndPatchWhenAnObjectIsEditedButIgnoreMapLookups() {
        List<KubernetesCalls.Call> calls = KubernetesCalls.inCode("A.java", """
                String v = labels.get("a");
                client.apps().deployments().inNamespace(ns).withName(n).edit(d -> {
                    d.getSpec().setReplicas(0);
                    return d;
                });
                for (String ns : tenant.namespaces()) { }
                """);
        assertThat(calls).singleElement().satisfies(c -> assertThat(c.verbs()).containsExactly("get", "patch"));
    }

    @Test
    void shouldFollowDslHandlesHeldInVariablesAndHelperMethods() {
        List<KubernetesCalls.Call> calls = KubernetesCalls.inCode("W.java", """
                private Resource<GenericKubernetesResource> resource(ObjectRef ref) {
                    var operation = client.genericKubernetesResources(ref.kind().context());
                    return operation.withName(ref.name());
                }
                void write() {
                    resource(ref).create(desired);
                    resource(ref).delete();
                }
                """);
        assertThat(calls).flatExtracting(KubernetesCalls.Call::verbs).containsExactlyInAnyOrder("create", "delete");
    }

    @Test
    void shouldNeedLeaseAccessWhenLeaderElectionIsUsed() {
        List<KubernetesCalls.Call> calls = KubernetesCalls.inCode(
                "L.java", "election = client.leaderElector().withConfig(config).build().start();");
        assertThat(calls).singleElement().satisfies(c -> assertThat(c.verbs())
                .containsExactlyInAnyOrder("get", "create", "update"));
    }

    @Test
    void shouldNeedLeaseAccessWhenTheServiceBuildsTheKitsLeaseLeadership() {
        List<KubernetesCalls.Call> calls = KubernetesCalls.inCode(
                "G.java", "return new LeaseLeadership(client, \"gateway-leadership\", election, duties, ready, 35);");
        assertThat(calls).singleElement().satisfies(c -> assertThat(c.verbs())
                .containsExactlyInAnyOrder("get", "create", "update"));
    }
}
