package io.gpuaas.booking.webhook;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Which URLs booking-service may POST notices to (SSRF rules): absolute https URLs without user info, whose host
 * resolves only to public unicast addresses. Refused: loopback, private (RFC 1918, IPv6 ULA), link-local (the
 * cloud metadata address 169.254.169.254 is one), carrier-grade NAT, unspecified and multicast addresses. Hosts in
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

        Refused(String rule, String message) {
            super(message);
            this.rule = rule;
        }

        /** UPPER_SNAKE rule name for problem responses and metrics. */
        public String rule() {
            return rule;
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
            throw new Refused("INVALID_URL", "the url must be an absolute http(s) URL of at most 2048 characters");
        }
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new Refused("INVALID_URL", "the url is not a valid URI");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!uri.isAbsolute() || uri.getHost() == null || !(scheme.equals("https") || scheme.equals("http"))) {
            throw new Refused("INVALID_URL", "the url must be an absolute http(s) URL with a host");
        }
        if (uri.getRawUserInfo() != null || uri.getRawFragment() != null) {
            throw new Refused("INVALID_URL", "the url must carry neither user info nor a fragment");
        }
        return uri;
    }

    private static String stripBrackets(String host) {
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }

    /** Whether {@code address} is anything but a public unicast address. */
    static boolean internal(InetAddress address) {
        if (address.isLoopbackAddress()
                || address.isLinkLocalAddress()
                || address.isSiteLocalAddress()
                || address.isAnyLocalAddress()
                || address.isMulticastAddress()) {
            return true;
        }
        byte[] b = address.getAddress();
        if (address instanceof Inet4Address) {
            int first = b[0] & 0xff;
            int second = b[1] & 0xff;
            // 0/8 "this network", 100.64/10 carrier-grade NAT, 192.0.0/24 IETF protocol assignments, 240/4 reserved.
            return first == 0
                    || (first == 100 && second >= 64 && second < 128)
                    || (first == 192 && second == 0 && (b[2] & 0xff) == 0)
                    || first >= 240;
        }
        if (address instanceof Inet6Address v6) {
            // fc00::/7 unique local (AWS's fd00:ec2::254 metadata address is one); IPv4-mapped addresses by their v4.
            if ((b[0] & 0xfe) == 0xfc) {
                return true;
            }
            if (isV4Mapped(b)) {
                try {
                    return internal(InetAddress.getByAddress(java.util.Arrays.copyOfRange(b, 12, 16)));
                } catch (UnknownHostException e) {
                    return true;
                }
            }
            return v6.isIPv4CompatibleAddress();
        }
        return true;
    }

    private static boolean isV4Mapped(byte[] b) {
        for (int i = 0; i < 10; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff;
    }
}
