package dev.continuum.provider.transfer;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The transfer provider moves bytes between endpoints (docs/architecture.md): the engine reaches it over the
 * Action Provider API, and it reaches a gateway's storage over the shared MQTT link through its device half
 * (`GatewayStorageServer`, started by `GatewayStorageMain` on the device), which must run without the cloud side.
 */
class TransferProviderBoundaryTest {

    private static final JavaClasses TRANSFER = new ClassFileImporter().importPath(Path.of("target/classes"));

    @Test
    void shouldNotImportTheEngine() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("dev.continuum.engine..", "dev.continuum.flow..")
                .check(TRANSFER);
    }

    @Test
    void shouldKeepTheDeviceHalfFreeOfTheProviderFrameworkAndS3() {
        noClasses().that().haveNameMatching(".*\\.gateway\\.GatewayStorage(Server|Main)(\\$.*)?")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "dev.continuum.provider.server..", "dev.continuum.provider.transfer.provider..",
                        "software.amazon..")
                .because("GatewayStorageMain runs on the edge device beside the gateway (docs/edge.md), not in the cloud")
                .check(TRANSFER);
    }

    @Test
    void shouldUseOnlyThePublicProviderSdk() {
        noClasses().should().dependOnClassesThat().resideInAPackage("dev.continuum.provider.internal..")
                .check(TRANSFER);
    }
}
