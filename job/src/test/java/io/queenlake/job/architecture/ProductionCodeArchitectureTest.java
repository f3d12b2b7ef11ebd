package io.queenlake.job.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import io.queenlake.broker.client.QueenClient;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layering of the production modules (docs/ARCHITECTURE.md "Modules"): format <- broker <-
 * source <- connector <- iceberg <- job, with devstack beside source, used by the job's command
 * line only; the connector reaches a table format only through its own WindowTables. Each rule fails
 * the build when a class imports against the arrows, or speaks to the broker outside its module.
 * (bench/ depends on every module and is on no other module's class path, so nothing can import it.)
 */
class ProductionCodeArchitectureTest {

    private static final ArchRule KV_OUTSIDE_THE_BROKER = noClasses()
            .that().resideOutsideOfPackage("io.queenlake.broker..")
            .should().callMethod(QueenClient.class, "kv", List.class)
            .orShould().dependOnClassesThat().haveFullyQualifiedName("io.queenlake.broker.client.KvOp")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("io.queenlake.broker.client.KvAnswer")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("io.queenlake.broker.client.KvResult")
            .because("every KV key, document and precondition of the lake lives in io.queenlake.broker.kv");

    private static JavaClasses production;

    @BeforeAll
    static void importProductionClasses() {
        // A reactor build puts the sibling modules on the class path as target/classes or, once
        // packaged, as their jars: both are production code; test classes and test-jars are not.
        production = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.contains("-tests.jar"))
                .importPackages("io.queenlake");
    }

    @Test
    void theFormatModuleDependsOnNoOtherModule() {
        noClasses().that().resideInAPackage("io.queenlake.format..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "io.queenlake.broker..", "io.queenlake.source..", "io.queenlake.connector..",
                        "io.queenlake.iceberg..", "io.queenlake.job..", "io.queenlake.devstack..")
                .check(production);
    }

    @Test
    void theBrokerModuleDependsOnTheFormatOnly() {
        noClasses().that().resideInAPackage("io.queenlake.broker..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "io.queenlake.source..", "io.queenlake.connector..", "io.queenlake.iceberg..",
                        "io.queenlake.job..", "io.queenlake.devstack..")
                .check(production);
    }

    @Test
    void theSourceNeverReachesTheConnectorTheJobOrTheDevStack() {
        noClasses().that().resideInAPackage("io.queenlake.source..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "io.queenlake.connector..", "io.queenlake.iceberg..", "io.queenlake.job..",
                        "io.queenlake.devstack..")
                .check(production);
    }

    @Test
    void theConnectorKnowsNoTableFormatNoApplicationAndNoDevStack() {
        noClasses().that().resideInAPackage("io.queenlake.connector..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "io.queenlake.iceberg..", "io.queenlake.job..", "io.queenlake.devstack..")
                .orShould().dependOnClassesThat().resideInAPackage("org.apache.iceberg..")
                .because("a Flink user's job depends on the connector alone; tables plug in through WindowTables")
                .check(production);
    }

    @Test
    void theIcebergTablesServeTheApplicationAndNeverReachIt() {
        noClasses().that().resideInAPackage("io.queenlake.iceberg..")
                .should().dependOnClassesThat().resideInAnyPackage("io.queenlake.job..", "io.queenlake.devstack..")
                .check(production);
    }

    @Test
    void theDevStackServesTheJobAndIsNeverServedByIt() {
        noClasses().that().resideInAPackage("io.queenlake.devstack..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "io.queenlake.source..", "io.queenlake.connector..", "io.queenlake.iceberg..",
                        "io.queenlake.job..")
                .check(production);
    }

    @Test
    void onlyTheCommandLineStartsTheDevStack() {
        noClasses().that().resideInAPackage("io.queenlake.job..").and().resideOutsideOfPackage("io.queenlake.job.cli..")
                .should().dependOnClassesThat().resideInAPackage("io.queenlake.devstack..")
                .check(production);
    }

    @Test
    void theLakeContractAndTheBrokerNeedNoFlinkRuntime() {
        noClasses().that().resideInAnyPackage("io.queenlake.format..", "io.queenlake.broker..")
                .should().dependOnClassesThat().resideInAPackage("org.apache.flink..")
                .check(production);
    }

    @Test
    void onlyTheBrokerModuleSpeaksHttpToTheBroker() {
        noClasses().that().resideOutsideOfPackage("io.queenlake.broker..")
                .should().dependOnClassesThat().resideInAPackage("java.net.http..")
                .because("the broker module's client is the only place where a decision meets the broker's socket")
                .check(production);
    }

    @Test
    void onlyTheBrokerModuleSpeaksTheBrokersKv() {
        KV_OUTSIDE_THE_BROKER.check(production);
    }

    @Test
    void theKvRuleCatchesACallerOutsideTheBroker() {
        // Test rigs may write KV rows directly; this one does, so the rule must refuse it.
        JavaClasses rig = new ClassFileImporter()
                .withImportOption(location -> location.contains("/test-classes/") || location.contains("-tests.jar"))
                .importPackages("io.queenlake.source.enumerator");
        assertThatThrownBy(() -> KV_OUTSIDE_THE_BROKER.check(rig))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("EnumeratorRig");
    }

    @Test
    void theImportHoldsEveryProductionModuleAndNoTestCode() {
        for (String module : List.of("format", "broker", "source", "connector", "iceberg", "job",
                "devstack")) {
            assertThat(production.stream().anyMatch(c -> (c.getPackageName() + ".").startsWith("io.queenlake." + module + ".")))
                    .as("production classes of module %s imported", module).isTrue();
        }
        assertThat(production.stream().map(JavaClass::getSimpleName)).doesNotContain("EnumeratorRig",
                "ProductionCodeArchitectureTest");
    }

    @Test
    void noModuleHasAPackageCycle() {
        slices().matching("io.queenlake.(*).(*)..").should().beFreeOfCycles().check(production);
    }
}
