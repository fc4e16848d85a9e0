package io.gpuaas.local;

import io.gpuaas.local.services.ServiceLauncher;
import java.util.Locale;

/** The summary printed once everything is up: where each part listens and which files to use. */
final class ReadyBanner {

    private ReadyBanner() {}

    static String render(LocalStack stack, StackOptions options, double seconds) {
        StringBuilder text = new StringBuilder("\n");
        line(
                text,
                "kafka",
                stack.bootstrapServers() + "  (SASL + ACLs, " + stack.topics().size() + " topics, "
                        + String.join(" ", stack.topics()) + ")");
        line(text, "kafka users", stack.file("kafka-credentials") + "  (one per service, read-only gpuaas-sre)");
        line(text, "kubernetes API", stack.kubernetesUrl() + "  (kubeconfig " + stack.file("kubeconfig") + ")");
        for (int i = 0; i < stack.fleetUrls().size(); i++) {
            line(text, i == 0 ? "dcgm-exporters" : "", stack.fleetUrls().get(i) + "  (gpu-node-" + (i + 1) + ")");
        }
        for (ServiceLauncher.Running service : stack.runningServices()) {
            line(text, service.name(), service.url() + "  (log " + service.log() + ")");
        }
        if (stack.runningServices().isEmpty()) {
            line(text, "services", "none started (--no-services / --only)");
        }
        line(text, "demo tokens", stack.file("tokens") + "  (team-a, team-b, ..., admin, prometheus)");
        line(text, "jwks / pools", stack.file("jwks") + "  " + stack.file("pools"));
        line(text, "logs", options.targetDir().resolve("logs").toString());
        text.append("\n  try: TOKEN=$(jq -r '.\"team-a\".token' ")
                .append(stack.file("tokens"))
                .append(")\n");
        text.append("       kubectl --kubeconfig ")
                .append(stack.file("kubeconfig"))
                .append(" get workloads -A\n");
        text.append("       kcat -F ").append(stack.file("kcat-sre")).append(" -C -t gpuaas.gpu-samples -c 1 -e\n\n");
        text.append(String.format(Locale.ROOT, "gpuaas local stack ready in %.1f s (Ctrl-C stops it)%n", seconds));
        return text.toString();
    }

    private static void line(StringBuilder text, String label, String value) {
        text.append(String.format(Locale.ROOT, "  %-18s %s%n", label, value));
    }
}
