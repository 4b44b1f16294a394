package dev.continuum.placement;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

/**
 * The placement core is one set of pure classes that the simulator, the planner service and the benchmarks share
 * (docs/architecture.md): no framework, and its packages stacked model → state → policy → sim, with traces,
 * reports and the command line beside or above them. Checks the classes this module compiles, not its tests.
 */
class PlacementCoreBoundaryTest {

    private static final JavaClasses PLACEMENT = new ClassFileImporter().importPath(Path.of("target/classes"));

    private static final String[] FRAMEWORKS = {
        "io.quarkus..", "io.vertx..", "io.smallrye..", "io.micrometer..", "jakarta..", "org.hibernate..",
        "com.hivemq..", "io.netty..", "org.eclipse.microprofile..", "org.jboss.."
    };

    @Test
    void shouldImportNoFrameworkSoThePlannerAndSimulatorRunTheSamePolicies() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage(FRAMEWORKS)
                .because("a policy is a pure function of (cluster state, queue); the planner service wraps it, the simulator replays it")
                .check(PLACEMENT);
    }

    @Test
    void shouldUsePicocliOnlyInTheCommandLineAndReports() {
        noClasses().that().resideOutsideOfPackages("..placement.cli..", "..placement.report..")
                .should().dependOnClassesThat().resideInAPackage("picocli..")
                .check(PLACEMENT);
    }

    @Test
    void shouldKeepTheResourceModelFreeOfEveryOtherPlacementPackage() {
        noClasses().that().resideInAPackage("..placement.model..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "..placement.state..", "..placement.policy..", "..placement.sim..", "..placement.trace..",
                        "..placement.report..", "..placement.cli..", "..placement.planner..")
                .check(PLACEMENT);
    }

    @Test
    void shouldKeepClusterStateBelowThePolicies() {
        noClasses().that().resideInAPackage("..placement.state..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "..placement.policy..", "..placement.sim..", "..placement.trace..",
                        "..placement.report..", "..placement.cli..", "..placement.planner..")
                .check(PLACEMENT);
    }

    @Test
    void shouldKeepPoliciesFreeOfTheSimulatorTracesAndPlanner() {
        noClasses().that().resideInAPackage("..placement.policy..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "..placement.sim..", "..placement.trace..", "..placement.report..", "..placement.cli..",
                        "..placement.planner..")
                .because("the same policy classes must run unchanged in the planner service and in the simulator")
                .check(PLACEMENT);
    }

    @Test
    void shouldKeepTheSimulatorFreeOfReportsAndTheCommandLine() {
        noClasses().that().resideInAnyPackage("..placement.sim..", "..placement.trace..")
                .should().dependOnClassesThat().resideInAnyPackage("..placement.report..", "..placement.cli..")
                .check(PLACEMENT);
    }

    @Test
    void shouldDecideFromItsInputsAloneSoARecordedPlannerTraceReplaysExactly() {
        noClasses().that().resideInAnyPackage(
                        "..placement.model..", "..placement.state..", "..placement.policy..", "..placement.planner..")
                .should().callMethod(System.class, "currentTimeMillis")
                .orShould().callMethod(System.class, "nanoTime")
                .orShould().callMethod(Instant.class, "now")
                .orShould().callMethod(Math.class, "random")
                .orShould().callConstructor(Random.class)
                .orShould().dependOnClassesThat().belongToAnyOf(Clock.class, ThreadLocalRandom.class)
                .because("time comes in as an argument and randomness from a seed (docs/simulator.md \"Determinism\", planner.trace.Replayer)")
                .check(PLACEMENT);
    }

    @Test
    void shouldKeepJsonOutOfThePlannersOwnTypes() {
        noClasses().that().resideInAPackage("..placement.planner..")
                .and().resideOutsideOfPackage("..placement.planner.trace..")
                .should().dependOnClassesThat().resideInAPackage("com.fasterxml..")
                .because("the trace codec maps them with mix-ins, so the planner's types carry no JSON annotations")
                .check(PLACEMENT);
    }
}
