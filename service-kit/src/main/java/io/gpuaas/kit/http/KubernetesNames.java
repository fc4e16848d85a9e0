package io.gpuaas.kit.http;

import io.micronaut.http.HttpStatus;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The Kubernetes name rules, checked at the HTTP edge before a name reaches the API server, a Kafka key or an
 * event: a path variable such as {@code ..%2F..%2Fteam-b} or {@code a%0d%0ab} is a 400, never a request to another
 * namespace, a failed reclaim or an alert.
 */
public final class KubernetesNames {

    private static final String LABEL = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
    private static final Pattern DNS1123_LABEL = Pattern.compile(LABEL);
    private static final Pattern DNS1123_SUBDOMAIN = Pattern.compile(LABEL + "(\\." + LABEL + ")*");

    private KubernetesNames() {}

    /** Namespaces (and other label-named objects): at most 63 characters of {@code [a-z0-9-]}, alphanumeric ends. */
    public static Optional<Problem> label(String field, String value) {
        if (value != null
                && value.length() <= 63
                && DNS1123_LABEL.matcher(value).matches()) {
            return Optional.empty();
        }
        return Optional.of(Problem.of(
                HttpStatus.BAD_REQUEST,
                "DNS1123_LABEL",
                field,
                field
                        + " must be a DNS-1123 label: at most 63 lower-case letters, digits or '-', starting and ending"
                        + " with a letter or digit"));
    }

    /** Object names: at most 253 characters, dot-separated DNS-1123 labels. */
    public static Optional<Problem> subdomain(String field, String value) {
        if (value != null
                && value.length() <= 253
                && DNS1123_SUBDOMAIN.matcher(value).matches()) {
            return Optional.empty();
        }
        return Optional.of(Problem.of(
                HttpStatus.BAD_REQUEST,
                "DNS1123_SUBDOMAIN",
                field,
                field
                        + " must be a DNS-1123 subdomain: at most 253 characters of lower-case letters, digits, '-' and '.',"
                        + " each dot-separated part starting and ending with a letter or digit"));
    }
}
