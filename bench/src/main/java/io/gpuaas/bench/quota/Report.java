package io.gpuaas.bench.quota;

import java.util.List;

/** The Markdown section for bench/results/quota.md. */
final class Report {

    private Report() {}

    static String render(
            int tenants,
            int burst,
            int workloads,
            List<Latencies> boundary,
            List<Latencies> state,
            String args,
            List<String> loads) {
        StringBuilder md = new StringBuilder();
        md.append("## quota-projector: boundary → ClusterQueue and Workload → quota-state\n\n");
        md.append("Machine: 2 shared, noisy cores; JDK ")
                .append(Runtime.version())
                .append("; one JVM holding a KRaft broker (EmbeddedKafka), the fabric8 CRUD mock API server, the real ")
                .append("quota-projector (no leader election) and the load generator.\n");
        md.append(tenants).append(" tenants, each with a labelled namespace; one h200 pool of 10,000 GPUs.\n");
        md.append("Load average (/proc/loadavg) during the run, other benchmarks sharing the 2 cores: ")
                .append(String.join("; ", loads))
                .append(".\n\n");
        md.append("### Booking boundary → ClusterQueue change (target p99 ≤ 1 s)\n\n");
        md.append("Latency from the window boundary instant to the moment a separate watching client sees the ")
                .append(
                        "ClusterQueue hold the quota (start) or lose it (end: no Workload holds quota, so it is deleted). ")
                .append(
                        "Every set runs twice: on the machine as it is (\"quiet\": this bench alone, whatever else the ")
                .append("shared machine runs) and with a separate process busy-looping on one core ")
                .append("(`sh -c 'while :; do :; done'`, started before the set and killed after; \"one core busy\"), ")
                .append("each beside the raw API-server create latencies measured in the same condition.\n\n");
        md.append(Latencies.header()).append('\n');
        boundary.forEach(l -> md.append(l.row()).append('\n'));
        md.append("\n### Workload change → quota-state record (target p99 ≤ 500 ms)\n\n");
        md.append(workloads)
                .append(" Workloads, one after another, round robin over the tenants: from just before ")
                .append("the status update that admits it to the arrival, at a consumer, of the ClusterQueue's ")
                .append("QueueState counting it.\n\n");
        md.append(Latencies.header()).append('\n');
        state.forEach(l -> md.append(l.row()).append('\n'));
        md.append("\nThe spread is the distribution over the samples of one run (min, p50, p90, p99, max). ")
                .append("The burst row is the worst case: ")
                .append(burst)
                .append(" ClusterQueues written at the same boundary against one mock API server.\n\n");
        md.append("Reproduce (from the repository root):\n\n```\n")
                .append("./mvnw -B -o -q -pl bench -am package -DskipTests\n")
                .append(
                        "/usr/lib/jvm/temurin-25-jdk-amd64/bin/java -cp \"bench/target/classes:$(cat bench/target/classpath.txt)\" \\\n")
                .append("  io.gpuaas.bench.quota.QuotaBench ")
                .append(args.isBlank() ? "--tenants 1000" : args)
                .append("\n```\n");
        return md.toString();
    }
}
