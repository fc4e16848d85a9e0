package io.gpuaas.deploy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Kubernetes API calls in a service's sources, found statically: a fabric8 DSL chain that starts at a client
 * entry point ({@code pods()}, {@code namespaces()}, {@code genericKubernetesResources(ctx)}, {@code apps()},
 * {@code leaderElector()}...) and ends in a verb ({@code get()}, {@code list()}, {@code inform()}, {@code update()},
 * {@code edit()}, {@code serverSideApply()}, {@code delete()}...), within one statement. Each call carries the RBAC
 * verbs the verb needs (an informer lists and watches; {@code edit} reads then patches; fabric8's leader election
 * reads, creates and updates a Lease). Building service-kit's {@code LeaseLeadership} counts as that leader election:
 * the kit makes the Lease calls on behalf of the service that builds it, so the RBAC belongs to that service.
 *
 * Chains that continue on a DSL handle held in a variable, field or returned by a helper method (declared with a
 * fabric8 DSL type such as {@code MixedOperation<...>} or {@code Resource<...>}, or a {@code var} assigned from
 * an entry point) count too.
 *
 * <p>Which resource a call addresses is not inferred (contexts are built in one place and passed around); the
 * access file of the service says it, per call, with a regular expression that matches the call's text.
 */
final class KubernetesCalls {

    record Call(String file, int line, String text, Set<String> verbs, boolean statusSubresource) {
        @Override
        public String toString() {
            return file + ":" + line + " " + text;
        }
    }

    private static final Pattern ENTRY = Pattern.compile("\\.(pods|namespaces|endpoints|endpointSlices|services|"
            + "configMaps|secrets|nodes|events|leases|apps|batch|coordination|apiextensions|discovery|rbac|network|"
            + "customResourceDefinitions|leaderElector)\\(\\)|\\.(genericKubernetesResources|resources|resource|"
            + "resourceList)\\(\\s*[^)\\s]");
    private static final Pattern VERB = Pattern.compile("\\.(get|list|watch|inform|informOnCondition|runnableInformer|"
            + "create|update|patch|edit|delete|replace|serverSideApply|createOrReplace|updateStatus|patchStatus|"
            + "editStatus|replaceStatus)\\((\\))?");
    private static final Pattern HANDLE_TYPE = Pattern.compile("\\b(MixedOperation|NonNamespaceOperation|Resource|"
            + "NamespaceableResource|FilterWatchListDeletable|FilterWatchListMultiDeletable|AnyNamespaceOperation|"
            + "Informable|Listable|Watchable|ParameterNamespaceListVisitFromServerGetDeleteRecreateWaitApplicable)<");
    private static final Pattern VAR_HANDLE = Pattern.compile("\\bvar\\s+([A-Za-z_][A-Za-z0-9_]*)\\s*=([^;]*)");
    private static final Pattern IDENTIFIER = Pattern.compile("\\s*([A-Za-z_][A-Za-z0-9_]*)");
    private static final Pattern LEADER_ELECTION =
            Pattern.compile("\\.leaderElector\\(\\)|new\\s+LeaseLock\\(|new\\s+LeaseLeadership\\(");
    private static final Map<String, List<String>> RBAC_VERBS = new LinkedHashMap<>();

    static {
        RBAC_VERBS.put("get", List.of("get"));
        RBAC_VERBS.put("list", List.of("list"));
        RBAC_VERBS.put("watch", List.of("watch"));
        RBAC_VERBS.put("inform", List.of("list", "watch"));
        RBAC_VERBS.put("informOnCondition", List.of("list", "watch"));
        RBAC_VERBS.put("runnableInformer", List.of("list", "watch"));
        RBAC_VERBS.put("create", List.of("create"));
        RBAC_VERBS.put("update", List.of("update"));
        RBAC_VERBS.put("replace", List.of("update"));
        RBAC_VERBS.put("patch", List.of("patch"));
        RBAC_VERBS.put("serverSideApply", List.of("patch"));
        RBAC_VERBS.put("edit", List.of("get", "patch"));
        RBAC_VERBS.put("delete", List.of("delete"));
        RBAC_VERBS.put("createOrReplace", List.of("create", "update"));
        RBAC_VERBS.put("updateStatus", List.of("update"));
        RBAC_VERBS.put("replaceStatus", List.of("update"));
        RBAC_VERBS.put("patchStatus", List.of("patch"));
        RBAC_VERBS.put("editStatus", List.of("get", "patch"));
    }

    private KubernetesCalls() {}

    /** Every API call in the main sources of {@code module}. */
    static List<Call> of(String module) {
        List<Call> calls = new ArrayList<>();
        for (JavaSources.SourceFile file : JavaSources.of(module)) {
            calls.addAll(inCode(file.fileName(), file.code()));
        }
        return calls;
    }

    /** The API calls in one file's code (comments already removed). */
    static List<Call> inCode(String fileName, String code) {
        List<Call> calls = new ArrayList<>();
        Pattern handles = handles(code);
        int start = 0;
        for (int i = 0; i <= code.length(); i++) {
            if (i == code.length() || code.charAt(i) == ';' || code.charAt(i) == '{' || code.charAt(i) == '}') {
                String statement = code.substring(start, i);
                Call call = call(fileName, lineOf(code, start, statement), statement, handles);
                if (call != null) {
                    calls.add(call);
                }
                start = i + 1;
            }
        }
        return calls;
    }

    /** Identifiers declared with a fabric8 DSL type in this file, as one pattern ({@code \\b(a|b)\\b(\\(...\\))?\\.}). */
    private static Pattern handles(String code) {
        List<String> names = new ArrayList<>();
        Matcher t = HANDLE_TYPE.matcher(code);
        while (t.find()) {
            int depth = 1;
            int i = t.end();
            while (i < code.length() && depth > 0) {
                char ch = code.charAt(i++);
                depth += ch == '<' ? 1 : ch == '>' ? -1 : 0;
            }
            Matcher id = IDENTIFIER.matcher(code).region(i, code.length());
            if (id.lookingAt()) {
                names.add(Pattern.quote(id.group(1)));
            }
        }
        Matcher v = VAR_HANDLE.matcher(code);
        while (v.find()) {
            if (ENTRY.matcher(v.group(2)).find()) {
                names.add(Pattern.quote(v.group(1)));
            }
        }
        return names.isEmpty() ? null : Pattern.compile("\\b(" + String.join("|", names) + ")\\b(\\([^)]*\\))?\\.");
    }

    private static Call call(String file, int line, String statement, Pattern handles) {
        // One line per statement, and a chained call wrapped onto the next line reads as written on one.
        String text = statement.replaceAll("\\s+", " ").replace(" .", ".").trim();
        if (LEADER_ELECTION.matcher(text).find()) {
            return new Call(file, line, text, new TreeSet<>(List.of("get", "create", "update")), false);
        }
        if (!ENTRY.matcher(text).find()
                && (handles == null || !handles.matcher(text).find())) {
            return null;
        }
        Set<String> verbs = new TreeSet<>();
        boolean status = false;
        Matcher v = VERB.matcher(text);
        while (v.find()) {
            String verb = v.group(1);
            // get() without arguments is the API read; get(x) is a Map or List lookup.
            if (verb.equals("get") && v.group(2) == null) {
                continue;
            }
            verbs.addAll(RBAC_VERBS.get(verb));
            status |= verb.endsWith("Status");
        }
        return verbs.isEmpty() ? null : new Call(file, line, text, verbs, status);
    }

    private static int lineOf(String code, int start, String statement) {
        int offset = start + (statement.length() - statement.stripLeading().length());
        int line = 1;
        for (int i = 0; i < offset && i < code.length(); i++) {
            if (code.charAt(i) == '\n') {
                line++;
            }
        }
        return line;
    }
}
