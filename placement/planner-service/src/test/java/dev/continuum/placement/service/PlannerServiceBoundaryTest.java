package dev.continuum.placement.service;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The planner service is a thin shell around the pure core (module placement/core): its use cases ({@code app}) see
 * no framework and no adapter, so the decisions online are the simulator's (docs/architecture.md).
 */
class PlannerServiceBoundaryTest {

    private static final JavaClasses SERVICE = new ClassFileImporter().importPath(Path.of("target/classes"));

    @Test
    void shouldKeepEveryClassOfTheModuleUnderItsPackageRoot() {
        classes().should().resideInAPackage("dev.continuum.placement.service..")
                .because("one package root per module, named after it, so no package is split across modules (issue 34)")
                .check(new ClassFileImporter().importPaths(Path.of("target/classes"), Path.of("target/test-classes")));
    }

    @Test
    void shouldKeepTheUseCasesFreeOfFrameworks() {
        noClasses().that().resideInAPackage("dev.continuum.placement.service.app..")
                .should().dependOnClassesThat().resideInAnyPackage("io.quarkus..", "io.vertx..", "jakarta..",
                        "io.agroal..", "org.eclipse.microprofile..", "io.smallrye..", "com.fasterxml..", "java.sql..")
                .check(SERVICE);
    }

    @Test
    void shouldReachAdaptersOnlyThroughPorts() {
        noClasses().that().resideInAPackage("dev.continuum.placement.service.app..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.continuum.placement.service.adapters..",
                        "dev.continuum.placement.service.config..", "dev.continuum.edge..")
                .check(SERVICE);
    }

    @Test
    void shouldDecideOnlyThroughThePureCore() {
        noClasses().that().resideInAPackage("dev.continuum.placement.service..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.continuum.placement.core.policy..",
                        "dev.continuum.placement.core.state..", "dev.continuum.placement.simulator..")
                .because("placing is the planner core's job; the service only feeds it and stores what it decided")
                .check(SERVICE);
    }
}
