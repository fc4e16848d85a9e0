package io.gpuaas.system.e2e;

import java.util.Optional;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * The scenario's steps build on each other: once one fails, the later ones are reported as not run (with the
 * failed step's name) instead of failing again for the same cause.
 */
final class StopAfterFirstFailure implements TestWatcher, ExecutionCondition {

    private static volatile String failedStep;

    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
        if (failedStep == null) {
            failedStep = context.getDisplayName();
        }
    }

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        if (context.getTestMethod().isEmpty() || failedStep == null) {
            return ConditionEvaluationResult.enabled("no step failed");
        }
        return ConditionEvaluationResult.disabled("an earlier step failed: " + failedStep);
    }

    static Optional<String> failedStep() {
        return Optional.ofNullable(failedStep);
    }
}
