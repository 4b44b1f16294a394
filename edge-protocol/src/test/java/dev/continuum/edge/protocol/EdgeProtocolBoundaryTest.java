package dev.continuum.edge.protocol;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * What device and cloud share. Every class of module edge-protocol lives under its one package root, {@code dev.continuum.edge.protocol}, tests included, so no
 * package is split across modules (docs/architecture.md, issue 34).
 */
class EdgeProtocolBoundaryTest {

    @Test
    void shouldKeepEveryClassOfTheModuleUnderItsPackageRoot() {
        classes().should().resideInAPackage("dev.continuum.edge.protocol..")
                .because("one package root per module, named after it, so no package is split across modules (issue 34)")
                .check(new ClassFileImporter().importPaths(Path.of("target/classes"), Path.of("target/test-classes")));
    }
}
