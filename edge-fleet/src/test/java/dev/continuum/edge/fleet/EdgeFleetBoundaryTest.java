package dev.continuum.edge.fleet;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The cloud's view of the fleet. Every class of module edge-fleet lives under its one package root, {@code dev.continuum.edge.fleet}, tests included, so no
 * package is split across modules (docs/architecture.md, issue 34).
 */
class EdgeFleetBoundaryTest {

    @Test
    void shouldKeepEveryClassOfTheModuleUnderItsPackageRoot() {
        classes().should().resideInAPackage("dev.continuum.edge.fleet..")
                .because("one package root per module, named after it, so no package is split across modules (issue 34)")
                .check(new ClassFileImporter().importPaths(Path.of("target/classes"), Path.of("target/test-classes")));
    }
}
