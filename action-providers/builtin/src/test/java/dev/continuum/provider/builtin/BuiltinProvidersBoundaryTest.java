package dev.continuum.provider.builtin;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The builtins are ordinary action providers (docs/architecture.md): the engine calls them over the Action
 * Provider API like any other, even when it hosts them in its own process. `ExpressionProvider` evaluates
 * with the same evaluator as the flow language — through its public API, never the language or the engine.
 */
class BuiltinProvidersBoundaryTest {

    private static final JavaClasses BUILTINS = new ClassFileImporter().importPath(Path.of("target/classes"));

    @Test
    void shouldNotImportTheEngineOrTheFlowLanguage() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage(
                        "dev.continuum.engine..", "dev.continuum.flow.model..", "dev.continuum.flow.run..",
                        "dev.continuum.flow.validation..", "dev.continuum.flow.data..")
                .check(BUILTINS);
    }

    @Test
    void shouldUseOnlyThePublicApisOfTheProviderSdkAndTheEvaluator() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage(
                        "dev.continuum.provider.internal..", "dev.continuum.flow.expr.internal..")
                .because("internal packages carry no compatibility promise")
                .check(BUILTINS);
    }
}
