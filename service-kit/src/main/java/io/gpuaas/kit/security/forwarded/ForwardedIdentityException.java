package io.gpuaas.kit.security.forwarded;

import io.gpuaas.kit.http.Problem;

/** A forwarded token that does not sign anyone in; carries the problem the caller gets (never the token). */
public final class ForwardedIdentityException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient Problem problem;

    public ForwardedIdentityException(Problem problem) {
        super(problem.rule(), null, false, false);
        this.problem = problem;
    }

    public Problem problem() {
        return problem;
    }
}
