package io.gpuaas.booking.webhook;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;

/**
 * Which addresses a webhook may never reach: everything but public unicast. IPv4 ranges by IANA's special-purpose
 * registry; IPv6 ranges likewise, and the IPv6 forms that carry an IPv4 address a translator or tunnel relay turns
 * back into IPv4 (IPv4-mapped {@code ::ffff:0:0/96}, IPv4-translated {@code ::ffff:0:0:0/96} (RFC 2765, SIIT),
 * NAT64 {@code 64:ff9b::/96} (RFC 6052), 6to4 {@code 2002::/16}
 * (RFC 3056), Teredo {@code 2001::/32} (RFC 4380)) are judged by the IPv4 address inside, so
 * {@code 64:ff9b::a9fe:a9fe} is the metadata address it reaches through a NAT64 gateway. The local-use NAT64 prefix
 * {@code 64:ff9b:1::/48} (RFC 8215) is refused outright: its operator chooses where the IPv4 address sits.
 */
final class InternalAddresses {

    /** Special-purpose IPv4 blocks: none is a public unicast destination. */
    private static final List<Block> V4 = List.of(
            Block.of("0.0.0.0/8"), // this network
            Block.of("10.0.0.0/8"), // RFC 1918
            Block.of("100.64.0.0/10"), // carrier-grade NAT
            Block.of("127.0.0.0/8"), // loopback
            Block.of("169.254.0.0/16"), // link-local: cloud metadata 169.254.169.254
            Block.of("172.16.0.0/12"), // RFC 1918
            Block.of("192.0.0.0/24"), // IETF protocol assignments
            Block.of("192.0.2.0/24"), // documentation
            Block.of("192.88.99.0/24"), // 6to4 relay anycast (deprecated)
            Block.of("192.168.0.0/16"), // RFC 1918
            Block.of("198.18.0.0/15"), // benchmarking
            Block.of("198.51.100.0/24"), // documentation
            Block.of("203.0.113.0/24"), // documentation
            Block.of("224.0.0.0/4"), // multicast
            Block.of("240.0.0.0/4")); // reserved, broadcast

    /** Special-purpose IPv6 blocks refused as such (the IPv4-carrying ones are looked into instead). */
    private static final List<Block> V6 = List.of(
            Block.of("::/96"), // unspecified, loopback, deprecated IPv4-compatible
            Block.of("64:ff9b:1::/48"), // local-use NAT64: where the IPv4 address sits is the operator's choice
            Block.of("100::/64"), // discard-only
            Block.of("2001:2::/48"), // benchmarking
            Block.of("2001:db8::/32"), // documentation
            Block.of("3fff::/20"), // documentation (RFC 9637)
            Block.of("fc00::/7"), // unique local: AWS's metadata fd00:ec2::254
            Block.of("fe80::/10"), // link-local
            Block.of("fec0::/10"), // site-local (deprecated)
            Block.of("ff00::/8")); // multicast

    private static final Block V4_MAPPED = Block.v4Mapped();
    private static final Block V4_TRANSLATED = Block.of("::ffff:0:0:0/96");
    private static final Block NAT64 = Block.of("64:ff9b::/96");
    private static final Block SIX_TO_FOUR = Block.of("2002::/16");
    private static final Block TEREDO = Block.of("2001::/32");

    private InternalAddresses() {}

    /** Whether {@code address} is anything but a public unicast address. */
    static boolean internal(InetAddress address) {
        return switch (address) {
            case Inet4Address v4 -> internalV4(v4.getAddress());
            case Inet6Address v6 -> internalV6(v6.getAddress());
            default -> true;
        };
    }

    private static boolean internalV4(byte[] b) {
        return V4.stream().anyMatch(block -> block.contains(b));
    }

    private static boolean internalV6(byte[] b) {
        if (V6.stream().anyMatch(block -> block.contains(b))) {
            return true;
        }
        if (V4_MAPPED.contains(b) || V4_TRANSLATED.contains(b) || NAT64.contains(b)) {
            return internalV4(Arrays.copyOfRange(b, 12, 16));
        }
        if (SIX_TO_FOUR.contains(b)) {
            return internalV4(Arrays.copyOfRange(b, 2, 6));
        }
        if (TEREDO.contains(b)) {
            // The Teredo server (bits 32-63) and the client, whose address is stored inverted (bits 96-127).
            byte[] client = Arrays.copyOfRange(b, 12, 16);
            for (int i = 0; i < client.length; i++) {
                client[i] = (byte) ~client[i];
            }
            return internalV4(Arrays.copyOfRange(b, 4, 8)) || internalV4(client);
        }
        return false;
    }

    /** An address block: a prefix and its length in bits. */
    private static final class Block {

        private final byte[] prefix;
        private final int bits;

        private Block(byte[] prefix, int bits) {
            this.prefix = prefix;
            this.bits = bits;
        }

        static Block of(String cidr) {
            int slash = cidr.indexOf('/');
            try {
                // Literal addresses only: getByName never asks DNS for them.
                byte[] prefix = InetAddress.getByName(cidr.substring(0, slash)).getAddress();
                return new Block(prefix, Integer.parseInt(cidr.substring(slash + 1)));
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException(cidr, e);
            }
        }

        /** {@code ::ffff:0:0/96}, built by hand: the JDK turns that literal into an IPv4 address. */
        static Block v4Mapped() {
            byte[] prefix = new byte[16];
            prefix[10] = (byte) 0xff;
            prefix[11] = (byte) 0xff;
            return new Block(prefix, 96);
        }

        boolean contains(byte[] address) {
            if (address.length != prefix.length) {
                return false;
            }
            int whole = bits / 8;
            for (int i = 0; i < whole; i++) {
                if (address[i] != prefix[i]) {
                    return false;
                }
            }
            int rest = bits % 8;
            if (rest == 0) {
                return true;
            }
            int mask = (0xff << (8 - rest)) & 0xff;
            return (address[whole] & mask) == (prefix[whole] & mask);
        }
    }
}
