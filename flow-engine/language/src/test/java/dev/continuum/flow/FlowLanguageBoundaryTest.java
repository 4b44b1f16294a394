package dev.continuum.flow;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The flow language — model, validator, interpreter — is the engine's pure core (docs/architecture.md): the
 * interpreter's transition function decides every run step, the service only stores and carries out its effects.
 * So it imports no framework and nothing of the engine, and its model stands below validation and execution.
 */
class FlowLanguageBoundaryTest {

    private static final JavaClasses LANGUAGE = new ClassFileImporter().importPath(Path.of("target/classes"));

    @Test
    void shouldImportNoFramework() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage(
                        "io.quarkus..", "io.vertx..", "io.smallrye..", "io.micrometer..", "jakarta..",
                        "org.hibernate..", "com.hivemq..", "io.netty..", "org.eclipse.microprofile..", "org.jboss..")
                .check(LANGUAGE);
    }

    @Test
    void shouldDependOnNoContinuumCodeOutsideTheFlowLanguageAndExpressions() {
        noClasses().should().dependOnClassesThat(
                        resideInAPackage("dev.continuum..").and(resideOutsideOfPackage("dev.continuum.flow..")))
                .because("the engine, providers and auth sit above the language")
                .check(LANGUAGE);
    }

    @Test
    void shouldUseOnlyThePublicExpressionApi() {
        noClasses().should().dependOnClassesThat().resideInAPackage("dev.continuum.flow.expr.internal..")
                .check(LANGUAGE);
    }

    @Test
    void shouldKeepTheFlowModelFreeOfValidationAndExecution() {
        noClasses().that().resideInAPackage("dev.continuum.flow.model..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "dev.continuum.flow.validation..", "dev.continuum.flow.run..", "dev.continuum.flow.data..")
                .because("the validator and the interpreter both read the model; it reads neither")
                .check(LANGUAGE);
    }

    @Test
    void shouldKeepTheValidatorAndTheInterpreterIndependent() {
        noClasses().that().resideInAPackage("dev.continuum.flow.validation..")
                .should().dependOnClassesThat().resideInAPackage("dev.continuum.flow.run..")
                .check(LANGUAGE);
        noClasses().that().resideInAPackage("dev.continuum.flow.run..")
                .should().dependOnClassesThat().resideInAPackage("dev.continuum.flow.validation..")
                .check(LANGUAGE);
    }
}
