package dev.continuum.placement.api;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The planner contract is records and their JSON mapping that the planner service, the providers and the trace
 * codec share (docs/architecture.md): no framework beyond Jackson, and no other Continuum module, so every caller
 * can depend on it. Checks the classes this module compiles; the package-root rule checks its tests too.
 */
class PlacementApiBoundaryTest {

    private static final JavaClasses API = new ClassFileImporter().importPath(Path.of("target/classes"));

    @Test
    void shouldKeepEveryClassOfTheModuleUnderItsPackageRoot() {
        classes().should().resideInAPackage("dev.continuum.placement.api..")
                .because("one package root per module, named after it, so no package is split across modules (issue 34)")
                .check(new ClassFileImporter().importPaths(Path.of("target/classes"), Path.of("target/test-classes")));
    }

    @Test
    void shouldUseNoFrameworkButJacksonSoEveryCallerCanShareTheContract() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("io.quarkus..", "io.vertx..", "io.smallrye..",
                        "io.micrometer..", "jakarta..", "org.hibernate..", "com.hivemq..", "io.netty..",
                        "org.eclipse.microprofile..", "org.jboss..")
                .because("the records are the planner's wire contract; frameworks stay in the service and the providers")
                .check(API);
    }

    @Test
    void shouldDependOnNothingButTheJdkAndJackson() {
        classes().should().onlyDependOnClassesThat().resideInAnyPackage("dev.continuum.placement.api..", "java..",
                        "com.fasterxml.jackson..")
                .because("no other Continuum module: the planner core, the service and every provider depend on this one")
                .check(API);
    }
}
