package io.gpuaas.booking.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class UrlPolicyTest {

    /** Names resolve as listed here, never through real DNS. */
    private static final Map<String, String> DNS = Map.of(
            "hooks.example.com", "93.184.216.34",
            "inward.example.com", "10.1.2.3",
            "metadata.example.com", "169.254.169.254",
            "v6.example.com", "2606:4700::1111",
            "ula.example.com", "fd00:ec2::254",
            "nat64-metadata.example.com", "64:ff9b::a9fe:a9fe");

    private final UrlPolicy policy = new UrlPolicy(Set.of("127.0.0.1", "localhost"), host -> {
        String address = DNS.get(host);
        if (address == null) {
            if (!host.matches("[0-9a-f.:]+")) {
                throw new UnknownHostException(host);
            }
            return List.of(InetAddress.getByName(host));
        }
        return List.of(InetAddress.getByName(address));
    });

    @ParameterizedTest
    @ValueSource(
            strings = {
                "https://hooks.example.com/gpuaas",
                "https://hooks.example.com:8443/x?y=1",
                "https://v6.example.com/",
                "http://127.0.0.1:8080/local",
                "http://localhost/x"
            })
    void shouldAcceptWhenTheUrlIsHttpsToAPublicHostOrAConfiguredLocalOne(String url) throws Exception {
        assertThat(policy.check(url).toString()).isEqualTo(url);
    }

    @ParameterizedTest
    @CsvSource({
        "http://hooks.example.com/x, HTTPS_REQUIRED",
        "https://inward.example.com/x, PRIVATE_ADDRESS",
        "https://metadata.example.com/latest, PRIVATE_ADDRESS",
        "https://ula.example.com/, PRIVATE_ADDRESS",
        "https://169.254.169.254/latest/meta-data, PRIVATE_ADDRESS",
        "https://127.0.0.2/x, PRIVATE_ADDRESS",
        "https://192.168.1.1/x, PRIVATE_ADDRESS",
        "https://100.64.0.1/x, PRIVATE_ADDRESS",
        "https://0.0.0.0/x, PRIVATE_ADDRESS",
        "https://[::1]/x, PRIVATE_ADDRESS",
        "https://[::ffff:10.0.0.1]/x, PRIVATE_ADDRESS",
        "https://user:pw@hooks.example.com/x, INVALID_URL",
        "https://hooks.example.com/x#frag, INVALID_URL",
        "ftp://hooks.example.com/x, INVALID_URL",
        "/relative, INVALID_URL",
        "https://no-such-host.example.com/, UNRESOLVABLE_HOST",
        "https://hooks.example.com:99999/x, INVALID_PORT",
        "https://hooks.example.com:0/x, INVALID_PORT",
        "http://127.0.0.1:65536/local, INVALID_PORT",
        "https://[64:ff9b::a9fe:a9fe]/, PRIVATE_ADDRESS",
        "https://nat64-metadata.example.com/, PRIVATE_ADDRESS",
        "https://198.18.0.1/, PRIVATE_ADDRESS"
    })
    void shouldRefuseNamingTheRuleWhenTheUrlCouldReachInsideOrIsNotHttps(String url, String rule) {
        assertThatThrownBy(() -> policy.check(url))
                .isInstanceOfSatisfying(
                        UrlPolicy.Refused.class, r -> assertThat(r.rule()).isEqualTo(rule))
                .hasMessageNotContaining("10.1.2.3");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "10.0.0.1",
                "172.16.0.1",
                "169.254.1.1",
                "fe80::1",
                "fc00::1",
                "224.0.0.1",
                "::",
                // IPv4 special-purpose blocks: benchmarking (both /16s of the /15), documentation, reserved
                "198.18.0.1",
                "198.19.255.254",
                "192.0.2.10",
                "203.0.113.5",
                "255.255.255.255",
                // IPv4-translated (SIIT): the IPv4 address in the last 32 bits, as for IPv4-mapped
                "::ffff:0:a9fe:a9fe",
                "::ffff:0:a00:1",
                "::ffff:0:7f00:1",
                // NAT64 well-known prefix: the IPv4 address in the last 32 bits
                "64:ff9b::a9fe:a9fe",
                "64:ff9b::10.1.2.3",
                "64:ff9b::7f00:1",
                "64:ff9b::c612:1",
                // NAT64 local-use prefix: refused whatever it carries
                "64:ff9b:1::5db8:d822",
                "64:ff9b:1:ffff::1",
                // 6to4: the IPv4 address in bits 16-47
                "2002:a9fe:a9fe::1",
                "2002:0a00:0001::",
                "2002:7f00:0001:1::1",
                "2002:c0a8:0101::",
                // Teredo: the server in bits 32-63, the client inverted in the last 32 bits
                "2001:0:4136:e378:8000:63bf:5601:5601", // client 169.254.169.254
                "2001:0:4136:e378:8000:63bf:f5ff:fffe", // client 10.0.0.1
                "2001:0:a9fe:a9fe::ffff:ffff", // server 169.254.169.254, client 0.0.0.0
                // other IPv6 special-purpose blocks
                "2001:db8::1",
                "3fff::1", // documentation, RFC 9637
                "3fff:fff:ffff::1",
                "2001:2::1",
                "100::1",
                "::1",
                "::a00:1",
                "ff02::1"
            })
    void shouldCallAnAddressInternalWhenItIsPrivateLinkLocalOrSpecial(String address) throws UnknownHostException {
        assertThat(UrlPolicy.internal(InetAddress.getByName(address)))
                .as(address)
                .isTrue();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "93.184.216.34",
                "198.17.255.255",
                "198.20.0.1",
                "2606:4700::1111",
                "64:ff9b::5db8:d822", // NAT64 of 93.184.216.34
                "::ffff:0:5db8:d822", // IPv4-translated 93.184.216.34
                "3fff:1000::1", // just past the documentation block 3fff::/20
                "2002:5db8:d822::1", // 6to4 of 93.184.216.34
                "2001:0:4136:e378:8000:63bf:a247:27dd", // Teredo: server 65.54.227.120, client 93.184.216.34
                "2001:4860:4860::8888" // 2001:4860::/32 is ordinary space, not Teredo's 2001::/32
            })
    void shouldCallAnAddressPublicWhenItAndAnyIpv4InsideArePublicUnicast(String address) throws UnknownHostException {
        assertThat(UrlPolicy.internal(InetAddress.getByName(address)))
                .as(address)
                .isFalse();
    }

    @ParameterizedTest
    @CsvSource({
        "https://hooks.example.com:99999/x, 400",
        "/relative, 400",
        "https://inward.example.com/x, 422",
        "http://hooks.example.com/x, 422"
    })
    void shouldAnswer400ForAUrlThatCannotBeCalledAnd422ForOneThePolicyForbids(String url, int status) {
        assertThatThrownBy(() -> policy.check(url))
                .isInstanceOfSatisfying(
                        UrlPolicy.Refused.class, r -> assertThat(r.status()).isEqualTo(status));
    }
}
