package dev.continuum.edge.gateway;

import static com.tngtech.archunit.base.DescribedPredicate.describe;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The gateway runs on the edge device (docs/architecture.md, docs/edge.md): of Continuum it may use only itself
 * and what device and cloud share — edge-protocol's wire formats and MQTT link, endpoint-paths' path rules, telemetry's trace exporter and trace context. The
 * cloud side (fleet, broker, providers, engine) is on its test classpath to run it end to end, never in its code.
 */
class EdgeGatewayBoundaryTest {

    private static final JavaClasses GATEWAY = new ClassFileImporter().importPath(Path.of("target/classes"));

    @Test
    void shouldKeepEveryClassOfTheModuleUnderItsPackageRoot() {
        classes().should().resideInAPackage("dev.continuum.edge.gateway..")
                .because("one package root per module, named after it, so no package is split across modules (issue 34)")
                .check(new ClassFileImporter().importPaths(Path.of("target/classes"), Path.of("target/test-classes")));
    }

    @Test
    void shouldUseNoContinuumCodeButItsOwnAndTheSharedEdgeProtocol() {
        noClasses().should().dependOnClassesThat(describe(
                        "belong to Continuum outside the gateway, edge-protocol, endpoint-paths and telemetry",
                        EdgeGatewayBoundaryTest::isOtherContinuumCode))
                .check(GATEWAY);
    }

    private static boolean isOtherContinuumCode(JavaClass target) {
        JavaClass type = target.getBaseComponentType(); // an array of the gateway's own enum is its own
        return type.getPackageName().startsWith("dev.continuum.")
                && !GATEWAY.contain(type.getName())
                && !type.getPackageName().matches("dev\\.continuum\\.(edge\\.protocol|paths|telemetry)(\\..*)?");
    }
}
