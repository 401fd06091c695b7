package org.ocelotl.layers;

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
   * The readers are internal to the trace module: only the format registry names them (it also
   * opens the split readers a distributed import drives, behind org.ocelotl.split).
   */
  @Test
  void onlyTheFormatRegistryReachesTheReaders() {
    noClasses().that().resideOutsideOfPackages("org.ocelotl.format..", "org.ocelotl.workspace..")
        .should().dependOnClassesThat().resideInAnyPackage("org.ocelotl.format..")
        .check(classes);
  }

  /** The split interfaces are what the readers implement: they know no reader, store or engine. */
  @Test
  void theSplitInterfacesKnowNoReaderAndNoEngine() {
    noClasses().that().resideInAnyPackage("org.ocelotl.split..")
        .should().dependOnClassesThat().resideInAnyPackage("org.ocelotl.format..", "org.ocelotl.store..",
            "org.ocelotl.workspace..", "org.ocelotl.spark..")
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
