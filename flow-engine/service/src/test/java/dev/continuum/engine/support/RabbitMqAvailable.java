package dev.continuum.engine.support;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Skips a test class, with the reason, where RabbitMQ's AMQP 1.0 cannot be used — decided before Quarkus starts. An
 * assumption raised in a Quarkus test's {@code @BeforeAll} reaches JUnit from Quarkus' class loader and counts as an
 * error, not a skip. Where CONTINUUM_REQUIRE_RABBITMQ=1 the class runs, and fails when RabbitMQ is missing.
 */
public final class RabbitMqAvailable implements ExecutionCondition {

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        if (RabbitMq.required()) {
            return ConditionEvaluationResult.enabled("CONTINUUM_REQUIRE_RABBITMQ=1: runs, and fails without RabbitMQ");
        }
        return RabbitMq.unavailable().map(ConditionEvaluationResult::disabled)
                .orElseGet(() -> ConditionEvaluationResult.enabled("RabbitMQ speaks AMQP 1.0"));
    }
}
