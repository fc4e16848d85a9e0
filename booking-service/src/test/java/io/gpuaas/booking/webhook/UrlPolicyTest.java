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
            "ula.example.com", "fd00:ec2::254");

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
        "https://no-such-host.example.com/, UNRESOLVABLE_HOST"
    })
    void shouldRefuseNamingTheRuleWhenTheUrlCouldReachInsideOrIsNotHttps(String url, String rule) {
        assertThatThrownBy(() -> policy.check(url))
                .isInstanceOfSatisfying(
                        UrlPolicy.Refused.class, r -> assertThat(r.rule()).isEqualTo(rule))
                .hasMessageNotContaining("10.1.2.3");
    }

    @ParameterizedTest
    @ValueSource(strings = {"10.0.0.1", "172.16.0.1", "169.254.1.1", "fe80::1", "fc00::1", "224.0.0.1", "::"})
    void shouldCallAnAddressInternalWhenItIsPrivateLinkLocalOrSpecial(String address) throws UnknownHostException {
        assertThat(UrlPolicy.internal(InetAddress.getByName(address))).isTrue();
    }
}
