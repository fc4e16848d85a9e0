package io.gpuaas.kit.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.micronaut.core.bind.exceptions.UnsatisfiedArgumentException;
import io.micronaut.core.type.Argument;
import io.micronaut.http.server.exceptions.NotAllowedException;
import java.net.URI;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FrameworkProblemsTest {

    @Test
    void shouldListAllowedMethodsWhenMethodNotAllowed() {
        Problem problem =
                FrameworkProblems.describe(405, new NotAllowedException("DELETE", URI.create("/x"), Set.of("GET")));

        assertThat(problem.rule()).isEqualTo("METHOD_NOT_ALLOWED");
        assertThat(problem.json("/x")).contains("\"allowed\":[\"GET\"]", "DELETE is not allowed");
    }

    @Test
    void shouldNameTheParameterWhenItIsMissing() {
        Problem problem =
                FrameworkProblems.describe(400, new UnsatisfiedArgumentException(Argument.of(int.class, "n")));

        assertThat(problem.rule()).isEqualTo("MISSING_PARAMETER");
        assertThat(problem.field()).isEqualTo("n");
    }

    @Test
    void shouldNeverCopyTheExceptionMessageWhenTheServiceFails() {
        Problem problem = FrameworkProblems.describe(
                500, new IllegalStateException("java.lang.NullPointerException in io.gpuaas.X"));

        assertThat(problem.json("/p"))
                .contains("\"rule\":\"INTERNAL\"")
                .doesNotContain("java.", "io.gpuaas", "Exception");
    }

    @Test
    void shouldDescribeABareStatusWhenThereIsNoCause() {
        assertThat(FrameworkProblems.describe(413, null).rule()).isEqualTo("BODY_TOO_LARGE");
        assertThat(FrameworkProblems.describe(418, null).json(null))
                .contains("\"status\":418", "\"rule\":\"I_AM_A_TEAPOT\"");
    }
}
