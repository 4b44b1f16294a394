package dev.continuum.flow.expr;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The expression evaluator sits at the bottom of the stack (docs/architecture.md): the flow language, the builtin
 * expression provider and the engine all call it, so it may call none of them and no framework.
 */
class ExpressionsBoundaryTest {

    private static final JavaClasses EXPRESSIONS = new ClassFileImporter().importPath(Path.of("target/classes"));

    @Test
    void shouldImportNoFramework() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage(
                        "io.quarkus..", "io.vertx..", "io.smallrye..", "io.micrometer..", "jakarta..",
                        "org.hibernate..", "com.hivemq..", "io.netty..", "org.eclipse.microprofile..", "org.jboss..")
                .check(EXPRESSIONS);
    }

    @Test
    void shouldDependOnNoOtherContinuumModule() {
        noClasses().should().dependOnClassesThat(
                        resideInAPackage("dev.continuum..").and(resideOutsideOfPackage("dev.continuum.flow.expr..")))
                .check(EXPRESSIONS);
    }
}
