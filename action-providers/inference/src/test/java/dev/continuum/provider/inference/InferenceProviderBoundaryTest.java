package dev.continuum.provider.inference;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The inference provider is the cloud side of edge inference (docs/architecture.md): it speaks the Action
 * Provider API to the engine and MQTT to the gateways, through the fleet and the wire formats they share — never
 * the engine's classes and never the gateway's own code, which runs on the device.
 */
class InferenceProviderBoundaryTest {

    private static final JavaClasses INFERENCE = new ClassFileImporter().importPath(Path.of("target/classes"));

    @Test
    void shouldNotImportTheEngine() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("dev.continuum.engine..", "dev.continuum.flow..")
                .check(INFERENCE);
    }

    @Test
    void shouldReachGatewaysOnlyThroughTheSharedEdgeProtocol() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage(
                        "dev.continuum.edge.gateway..")
                .because("the gateway is on this module's test classpath only, to run real gateways in tests")
                .check(INFERENCE);
    }

    @Test
    void shouldUseOnlyThePublicProviderSdk() {
        noClasses().should().dependOnClassesThat().resideInAPackage("dev.continuum.provider.internal..")
                .check(INFERENCE);
    }
}
