package dev.continuum.provider;

import static com.tngtech.archunit.base.DescribedPredicate.describe;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackages;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.codeUnits;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The SDK's promise to provider authors and to the engine is its public packages (`api`, `client`, `server`);
 * `internal` may change at any time, so no public signature may hand one of its types out (docs/architecture.md).
 * Modules that use the SDK check on their side that they import no `internal` class.
 */
class ProviderSdkBoundaryTest {

    private static final String INTERNAL = "dev.continuum.provider.internal";

    private static final JavaClasses SDK = new ClassFileImporter().importPath(Path.of("target/classes"));

    @Test
    void shouldKeepInternalTypesOutOfPublicSignatures() {
        codeUnits().that(describe("are public or protected", unit ->
                        unit.getModifiers().contains(JavaModifier.PUBLIC) || unit.getModifiers().contains(JavaModifier.PROTECTED)))
                .and().areDeclaredInClassesThat().arePublic()
                .and().areDeclaredInClassesThat().resideOutsideOfPackage(INTERNAL + "..")
                .should(mentionNoInternalType())
                .check(SDK);
    }

    @Test
    void shouldKeepTheWireRecordsFreeOfTheClientAndServer() {
        noClasses().that().resideInAPackage("dev.continuum.provider.api..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "dev.continuum.provider.client..", "dev.continuum.provider.server..", INTERNAL + "..")
                .because("the engine, the CLI and every provider share the wire records")
                .check(SDK);
    }

    @Test
    void shouldKeepTheClientFreeOfTheProviderFramework() {
        noClasses().that().resideInAPackage("dev.continuum.provider.client..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.continuum.provider.server..", INTERNAL + "..")
                .because("the engine calls providers through the client without hosting one")
                .check(SDK);
    }

    @Test
    void shouldDependOnNoOtherContinuumModuleButTheTraceExporter() {
        noClasses().should().dependOnClassesThat(resideInAPackage("dev.continuum..").and(resideOutsideOfPackages(
                        "dev.continuum.provider.api..", "dev.continuum.provider.client..",
                        "dev.continuum.provider.server..", INTERNAL + "..", "dev.continuum.telemetry..")))
                .because("the launcher installs the OTLP exporter, and request spans read the caller's W3C trace context, as the gateway"
                        + " does (telemetry, docs/operations.md)")
                .check(SDK);
    }

    private static ArchCondition<JavaCodeUnit> mentionNoInternalType() {
        return new ArchCondition<>("mention no type of " + INTERNAL) {
            @Override
            public void check(JavaCodeUnit unit, ConditionEvents events) {
                Stream.of(Stream.of(unit.getReturnType()), unit.getParameterTypes().stream(), unit.getExceptionTypes().stream())
                        .flatMap(types -> types)
                        .flatMap(type -> type.getAllInvolvedRawTypes().stream())
                        .map(JavaClass::getName)
                        .filter(name -> name.startsWith(INTERNAL + "."))
                        .forEach(name -> events.add(SimpleConditionEvent.violated(unit, unit.getDescription() + " exposes " + name)));
            }
        };
    }
}
