package org.ocelotl.layers;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.nameMatching;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layers of DESIGN.md and docs/decisions/011-packages.md: no package cycle anywhere, a core that knows nothing of traces, stores
 * or front ends, readers that know nothing of the store, an analysis layer that returns results
 * and front ends that render them, and front ends that reach the pipeline through the analysis
 * service. Checked here, in ocelotl-spark, whose test classpath is the one that holds every
 * module (core, trace, app and spark).
 */
class LayersTest {
  static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    // ocelotl-trace's test classes reach this class path as its test-jar (org.ocelotl.testing),
    // which ArchUnit's test option, looking for test-classes directories, does not recognise.
    classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(location -> !location.contains("-tests.jar"))
        .importPackages("org.ocelotl");
  }

  @Test
  void noPackageCycle() {
    slices().matching("org.ocelotl.(**)").should().beFreeOfCycles().check(classes);
  }

  @Test
  void theCoreDependsOnNothingButTheJdk() {
    noClasses().that().resideInAnyPackage("org.ocelotl.model..", "org.ocelotl.aggregation..", "org.ocelotl.view..")
        .should().dependOnClassesThat().resideOutsideOfPackages("org.ocelotl.model..", "org.ocelotl.aggregation..",
            "org.ocelotl.view..", "java..")
        .check(classes);
  }

  @Test
  void readersKnowOnlyTheReaderInterface() {
    noClasses().that().resideInAnyPackage("org.ocelotl.format..")
        .should().dependOnClassesThat().resideInAnyPackage("org.ocelotl.store..", "org.ocelotl.scan..",
            "org.ocelotl.workspace..", "org.ocelotl.analysis..", "org.ocelotl.view..", "org.ocelotl.aggregation..")
        .check(classes);
  }

  /**
   * The readers are internal to the trace module: only the format registry names them; and the
   * Spark jobs, which drive the split readers (a Pajé trace's byte ranges, an OTF2 archive's
   * locations) and nothing else of the readers' packages.
   */
  @Test
  void onlyTheFormatRegistryReachesTheReaders() {
    noClasses().that().resideOutsideOfPackages("org.ocelotl.format..", "org.ocelotl.workspace..", "org.ocelotl.spark..")
        .should().dependOnClassesThat().resideInAnyPackage("org.ocelotl.format..")
        .check(classes);
  }

  @Test
  void sparkReachesOnlyTheSplitReaders() {
    noClasses().that().resideInAnyPackage("org.ocelotl.spark..")
        .should().dependOnClassesThat(resideInAnyPackage("org.ocelotl.format..")
            .and(not(nameMatching(".*\\.(PajeSplit|Otf2Split|Otf2Files|Otf2Reader|PajeReader)(\\$.*)?"))))
        .check(classes);
  }

  /** The analysis layer returns results; the front ends (command line, server, exports) render them. */
  @Test
  void theAnalysisLayerRendersNothingAndKnowsNoFrontEnd() {
    noClasses().that().resideInAnyPackage("org.ocelotl.analysis..")
        .should().dependOnClassesThat().resideInAnyPackage("org.ocelotl.export..", "org.ocelotl.server..",
            "org.ocelotl.app..", "org.ocelotl.spark..")
        .check(classes);
  }

  /** The renderers draw results; they serve no request and parse no command line. */
  @Test
  void theRenderersKnowNoFrontEnd() {
    noClasses().that().resideInAnyPackage("org.ocelotl.export..")
        .should().dependOnClassesThat().resideInAnyPackage("org.ocelotl.server..", "org.ocelotl.app..",
            "org.ocelotl.spark..")
        .check(classes);
  }

  @Test
  void theTraceStoreKnowsNoReaderAndNoFrontEnd() {
    noClasses().that().resideInAnyPackage("org.ocelotl.store..", "org.ocelotl.scan..", "org.ocelotl.trace..")
        .should().dependOnClassesThat().resideInAnyPackage("org.ocelotl.format..", "org.ocelotl.workspace..",
            "org.ocelotl.analysis..", "org.ocelotl.server..", "org.ocelotl.app..")
        .check(classes);
  }

  @Test
  void frontEndsDoNotComputeQualitiesThemselves() {
    noClasses().that().resideInAnyPackage("org.ocelotl.server..", "org.ocelotl.app..")
        .should().dependOnClassesThat().haveSimpleName("Qualities")
        .check(classes);
  }
}
