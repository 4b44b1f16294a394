package dev.continuum.testkit;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The kit every module's tests share. Every class of module test-kit lives under its one package root,
 * {@code dev.continuum.testkit}, tests included, so no package is split across modules (docs/architecture.md,
 * issue 34); its main code uses no other Continuum module, so any module can take it in test scope without a cycle.
 */
class TestKitBoundaryTest {

    @Test
    void shouldKeepEveryClassOfTheModuleUnderItsPackageRoot() {
        classes().should().resideInAPackage("dev.continuum.testkit..")
                .because("one package root per module, named after it, so no package is split across modules (issue 34)")
                .check(new ClassFileImporter().importPaths(Path.of("target/classes"), Path.of("target/test-classes")));
    }

    @Test
    void shouldUseNoOtherContinuumModuleWhenAnyModuleMayTakeItInTestScope() {
        noClasses().should().dependOnClassesThat(resideInAPackage("dev.continuum..")
                        .and(resideOutsideOfPackage("dev.continuum.testkit..")))
                .because("every module's tests use the kit: a Continuum dependency here would be a cycle (issue 34)")
                .check(new ClassFileImporter().importPaths(Path.of("target/classes")));
    }
}
