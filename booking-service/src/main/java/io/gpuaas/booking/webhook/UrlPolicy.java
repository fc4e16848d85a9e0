package io.gpuaas.booking.webhook;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Which URLs booking-service may POST notices to (SSRF rules): absolute https URLs without user info, whose host
 * resolves only to public unicast addresses ({@link InternalAddresses}: loopback, private, link-local such as the
 * cloud metadata address, carrier-grade NAT, benchmarking, reserved, multicast, and IPv6 forms carrying any of
 * them), and whose port, if given, is 1 to 65535. Hosts in
 * {@code localHosts} may use http and any address (tests, the local stack). Checked at registration and again at
 * every delivery, so a name that later resolves inward is not followed; redirects are never followed.
 */
public final class UrlPolicy {

    /** Resolves a host name to its addresses (the JDK resolver; a fake in tests). */
    public interface Resolver {
        List<InetAddress> resolve(String host) throws UnknownHostException;
    }

    /** Why a URL is refused; the message names the rule, never a resolved address. */
    public static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;

        private final String rule;
        private final int status;

        Refused(String rule, String message) {
            this(422, rule, message);
        }

        Refused(int status, String rule, String message) {
            super(message);
            this.rule = rule;
            this.status = status;
        }

        /** UPPER_SNAKE rule name for problem responses and metrics. */
        public String rule() {
            return rule;
        }

        /** 400 when the url is not one that could be called at all, 422 when policy forbids calling it. */
        public int status() {
            return status;
        }
    }

    private static final int MAX_URL_LENGTH = 2048;

    private final Set<String> localHosts;
    private final Resolver resolver;

    public UrlPolicy(Set<String> localHosts, Resolver resolver) {
        this.localHosts = Set.copyOf(localHosts);
        this.resolver = resolver;
    }

    /** The policy with the JDK resolver. */
    public static UrlPolicy of(Set<String> localHosts) {
        return new UrlPolicy(localHosts, host -> List.of(InetAddress.getAllByName(host)));
    }

    /** The parsed URL when it may be called now; {@link Refused} naming the rule otherwise. */
    public URI check(String url) throws Refused {
        URI uri = parse(url);
        String host = uri.getHost().toLowerCase(Locale.ROOT);
        boolean local = localHosts.contains(host);
        if (!"https".equals(uri.getScheme()) && !local) {
            throw new Refused("HTTPS_REQUIRED", "the url must use https");
        }
        if (local) {
            return uri;
        }
        List<InetAddress> addresses;
        try {
            addresses = resolver.resolve(stripBrackets(host));
        } catch (UnknownHostException e) {
            throw new Refused("UNRESOLVABLE_HOST", "the url's host does not resolve");
        }
        if (addresses.isEmpty() || addresses.stream().anyMatch(UrlPolicy::internal)) {
            throw new Refused(
                    "PRIVATE_ADDRESS", "the url's host resolves to a private, loopback or link-local address");
        }
        return uri;
    }

    private static URI parse(String url) throws Refused {
        if (url == null || url.isBlank() || url.length() > MAX_URL_LENGTH) {
            throw invalid("the url must be an absolute http(s) URL of at most 2048 characters");
        }
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw invalid("the url is not a valid URI");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!uri.isAbsolute() || uri.getHost() == null || !(scheme.equals("https") || scheme.equals("http"))) {
            throw invalid("the url must be an absolute http(s) URL with a host");
        }
        if (uri.getRawUserInfo() != null || uri.getRawFragment() != null) {
            throw invalid("the url must carry neither user info nor a fragment");
        }
        if (uri.getPort() != -1 && (uri.getPort() < 1 || uri.getPort() > 65535)) {
            throw new Refused(400, "INVALID_PORT", "the url's port must be between 1 and 65535");
        }
        return uri;
    }

    private static Refused invalid(String message) {
        return new Refused(400, "INVALID_URL", message);
    }

    private static String stripBrackets(String host) {
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }

    /** Whether {@code address} is anything but a public unicast address ({@link InternalAddresses}). */
    static boolean internal(InetAddress address) {
        return InternalAddresses.internal(address);
    }
}
