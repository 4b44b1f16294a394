package dev.continuum.paths;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Endpoint paths, shared by the transfer provider, the gateway and the inference provider. Every class of module endpoint-paths lives under its one package root, {@code dev.continuum.paths}, tests included, so no
 * package is split across modules (docs/architecture.md, issue 34).
 */
class EndpointPathsBoundaryTest {

    @Test
    void shouldKeepEveryClassOfTheModuleUnderItsPackageRoot() {
        classes().should().resideInAPackage("dev.continuum.paths..")
                .because("one package root per module, named after it, so no package is split across modules (issue 34)")
                .check(new ClassFileImporter().importPaths(Path.of("target/classes"), Path.of("target/test-classes")));
    }
}
