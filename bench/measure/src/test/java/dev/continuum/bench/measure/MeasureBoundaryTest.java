package dev.continuum.bench.measure;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The measuring kit the benchmarks share. Every class of module bench/measure lives under its one package root, {@code dev.continuum.bench.measure}, tests included, so no
 * package is split across modules (docs/architecture.md, issue 34).
 */
class MeasureBoundaryTest {

    @Test
    void shouldKeepEveryClassOfTheModuleUnderItsPackageRoot() {
        classes().should().resideInAPackage("dev.continuum.bench.measure..")
                .because("one package root per module, named after it, so no package is split across modules (issue 34)")
                .check(new ClassFileImporter().importPaths(Path.of("target/classes"), Path.of("target/test-classes")));
    }
}
