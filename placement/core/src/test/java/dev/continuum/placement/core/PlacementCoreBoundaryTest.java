package dev.continuum.placement.core;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
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
 * (docs/architecture.md): no framework, and its packages stacked model → state → policy → planner; the simulator
 * (module placement/simulator, {@code SimulatorBoundaryTest}) sits above them. Checks the classes this module
 * compiles; the package-root rule checks its tests too.
 */
class PlacementCoreBoundaryTest {

    private static final JavaClasses PLACEMENT = new ClassFileImporter().importPath(Path.of("target/classes"));

    private static final String ROOT = "dev.continuum.placement.core";

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
    void shouldKeepEveryClassOfTheModuleUnderItsPackageRoot() {
        classes().should().resideInAPackage(ROOT + "..")
                .because("one package root per module, named after it, so no package is split across modules (issue 34)")
                .check(new ClassFileImporter().importPaths(Path.of("target/classes"), Path.of("target/test-classes")));
    }

    @Test
    void shouldUseNoPicocliAndNothingOfTheSimulator() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("picocli..", "dev.continuum.placement.simulator..")
                .because("the command line, traces and reports live in placement/simulator, above the core")
                .check(PLACEMENT);
    }

    @Test
    void shouldKeepTheResourceModelFreeOfEveryOtherPlacementPackage() {
        noClasses().that().resideInAPackage("..placement.core.model..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "..placement.core.state..", "..placement.core.policy..", "..placement.core.planner..")
                .check(PLACEMENT);
    }

    @Test
    void shouldKeepClusterStateBelowThePolicies() {
        noClasses().that().resideInAPackage("..placement.core.state..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "..placement.core.policy..", "..placement.core.planner..")
                .check(PLACEMENT);
    }

    @Test
    void shouldKeepPoliciesFreeOfThePlanner() {
        noClasses().that().resideInAPackage("..placement.core.policy..")
                .should().dependOnClassesThat().resideInAnyPackage("..placement.core.planner..")
                .because("the same policy classes must run unchanged in the planner service and in the simulator")
                .check(PLACEMENT);
    }

    @Test
    void shouldDecideFromItsInputsAloneSoARecordedPlannerTraceReplaysExactly() {
        noClasses().that().resideInAnyPackage(
                        "..placement.core.model..", "..placement.core.state..", "..placement.core.policy..",
                        "..placement.core.planner..")
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
        noClasses().that().resideInAPackage("..placement.core.planner..")
                .and().resideOutsideOfPackage("..placement.core.planner.trace..")
                .should().dependOnClassesThat().resideInAPackage("com.fasterxml..")
                .because("the trace codec maps them with mix-ins, so the planner's types carry no JSON annotations")
                .check(PLACEMENT);
    }
}
