package dev.continuum.engine;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.continuum.engine.app.RunDriver;
import org.junit.jupiter.api.Test;

import java.net.URISyntaxException;
import java.nio.file.Path;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * The engine's layers (DESIGN.md, ADR 0001): use cases in app/ reach storage, HTTP and the runtime
 * only through ports that adapters/ implement, and domain/ is plain Java. CDI annotations
 * (jakarta.inject, jakarta.enterprise) and Mutiny's {@code Uni} are allowed in app/.
 */
class ServiceBoundaryTest {

    /** The engine's own classes (target/classes): scanning the whole class path for the package takes minutes. */
    private static final JavaClasses ENGINE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPath(classesOf(RunDriver.class));

    private static Path classesOf(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void shouldReachAdaptersOnlyThroughPortsWhenInUseCases() {
        noClasses().that().resideInAPackage("dev.continuum.engine.app..")
                .should().dependOnClassesThat().resideInAPackage("dev.continuum.engine.adapters..")
                .check(ENGINE);
    }

    @Test
    void shouldUseNoRuntimeFrameworkWhenInUseCases() {
        noClasses().that().resideInAPackage("dev.continuum.engine.app..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "io.quarkus..", "io.vertx..", "io.smallrye.common.vertx..", "io.micrometer..", "jakarta.ws..")
                .check(ENGINE);
    }

    @Test
    void shouldUseOnlyPlainJavaWhenInDomain() {
        classes().that().resideInAPackage("dev.continuum.engine.domain..")
                .should().onlyDependOnClassesThat().resideInAnyPackage(
                        "java..", "dev.continuum.engine.domain..", "dev.continuum.flow..", "com.fasterxml.jackson..")
                .check(ENGINE);
    }
}
