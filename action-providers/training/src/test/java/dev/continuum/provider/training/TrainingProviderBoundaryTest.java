package dev.continuum.provider.training;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The backend interface is what other backends (Slurm, Kubernetes) implement: pure JDK. The
 * scheduler core knows the planner and the backend interface, never HTTP, JSON or the SDK; the demo
 * trainer and the launcher run inside jobs, so they need neither the provider nor the planner.
 */
class TrainingProviderBoundaryTest {
    private static final JavaClasses TRAINING = new ClassFileImporter().importPath(Path.of("target/classes"));

    @Test
    void theBackendInterfaceAndTheCoreUseNoFramework() {
        noClasses().that().resideInAnyPackage("..training.backend", "..training.core..")
                .should().dependOnClassesThat().resideInAnyPackage("io.vertx..", "com.fasterxml..",
                        "dev.continuum.provider.server..", "dev.continuum.provider.api..", "java.sql..")
                .check(TRAINING);
        noClasses().that().resideInAPackage("..training.backend")
                .should().dependOnClassesThat().resideInAnyPackage("dev.continuum.placement..",
                        "..training.core..", "..training.provider..", "..training.backend.local..")
                .check(TRAINING);
    }

    @Test
    void whatRunsInsideAJobNeedsOnlyTheProtocol() {
        noClasses().that().resideInAnyPackage("..training.demo..", "..training.launcher..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.continuum.placement..", "io.vertx..",
                        "..training.core..", "..training.provider..", "dev.continuum.provider.server..")
                .check(TRAINING);
    }

    @Test
    void shouldUseNeitherTheEngineNorSdkInternals() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("dev.continuum.engine..", "dev.continuum.flow..",
                "dev.continuum.provider.internal..").check(TRAINING);
    }
}
