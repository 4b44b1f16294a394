package dev.continuum.placement.simulator;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The simulator replays traces through the placement core's own policies (docs/architecture.md): no framework, the
 * simulation and the trace readers below the reports and the command line, picocli only in those two. Checks the
 * classes this module compiles; the package-root rule checks its tests too. (These rules were the simulator's half
 * of {@code PlacementCoreBoundaryTest} before the module was split, issue 34.)
 */
class SimulatorBoundaryTest {

    private static final JavaClasses SIMULATOR = new ClassFileImporter().importPath(Path.of("target/classes"));

    private static final String ROOT = "dev.continuum.placement.simulator";

    private static final String[] FRAMEWORKS = {
        "io.quarkus..", "io.vertx..", "io.smallrye..", "io.micrometer..", "jakarta..", "org.hibernate..",
        "com.hivemq..", "io.netty..", "org.eclipse.microprofile..", "org.jboss.."
    };

    @Test
    void shouldKeepEveryClassOfTheModuleUnderItsPackageRoot() {
        classes().should().resideInAPackage(ROOT + "..")
                .because("one package root per module, named after it, so no package is split across modules (issue 34)")
                .check(new ClassFileImporter().importPaths(Path.of("target/classes"), Path.of("target/test-classes")));
    }

    @Test
    void shouldImportNoFrameworkSoThePlannerAndSimulatorRunTheSamePolicies() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage(FRAMEWORKS)
                .because("a policy is a pure function of (cluster state, queue); the planner service wraps it, the simulator replays it")
                .check(SIMULATOR);
    }

    @Test
    void shouldUsePicocliOnlyInTheCommandLineAndReports() {
        noClasses().that().resideOutsideOfPackages(ROOT + ".cli..", ROOT + ".report..")
                .should().dependOnClassesThat().resideInAPackage("picocli..")
                .check(SIMULATOR);
    }

    @Test
    void shouldKeepTheSimulatorFreeOfReportsAndTheCommandLine() {
        noClasses().that().resideInAPackage(ROOT + ".trace..")
                .or().resideInAPackage(ROOT)
                .should().dependOnClassesThat().resideInAnyPackage(ROOT + ".report..", ROOT + ".cli..")
                .check(SIMULATOR);
    }
}
