package org.ocelotl.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class StateRulesTest {
  @Test
  void defaultRulesAreLttngsEntryExitConvention() {
    StateRules rules = StateRules.DEFAULT;
    assertEquals(new StateRules.Role(true, "lttng_ust_cyg_profile:func"), rules.role("lttng_ust_cyg_profile:func_entry"));
    assertEquals(new StateRules.Role(false, "lttng_ust_cyg_profile:func"), rules.role("lttng_ust_cyg_profile:func_exit"));
    assertEquals(new StateRules.Role(true, "syscall_read"), rules.role("syscall_entry_read"));
    assertEquals(new StateRules.Role(false, "syscall_read"), rules.role("syscall_exit_read"));
    assertNull(rules.role("lttng_ust_pthread:pthread_mutex_unlock"));
    assertNull(rules.role("sched_switch"));
  }

  @Test
  void userRulesNameTheStateByTheirGroupsAndTheFirstMatchingRuleDecides() {
    StateRules rules = StateRules.parse(List.of(
        "(app:request)_received", "(app:request)_sent",
        "(.*):(.*)_begin", "(.*):(.*)_end"));
    assertEquals(new StateRules.Role(true, "app:request"), rules.role("app:request_received"));
    assertEquals(new StateRules.Role(false, "app:request"), rules.role("app:request_sent"));
    assertEquals(new StateRules.Role(true, "gpukernel"), rules.role("gpu:kernel_begin"));
    assertEquals(new StateRules.Role(false, "gpukernel"), rules.role("gpu:kernel_end"));
    // The whole name must match: the default suffixes mean nothing under these rules.
    assertNull(rules.role("lttng_ust_cyg_profile:func_entry"));
    assertNull(rules.role("app:request_received_late"));
  }

  @Test
  void badRulesAreRefusedWithTheExpression() {
    assertEquals("state rules: expected pairs of an entry and an exit regular expression, found 3 expression(s)",
        assertThrows(IllegalArgumentException.class, () -> StateRules.parse(List.of("(a)", "(b)", "(c)"))).getMessage());
    assertEquals("state rule exit \"(.*_end\": not a regular expression (Unclosed group at character 7)",
        assertThrows(IllegalArgumentException.class, () -> StateRules.parse(List.of("(.*)_begin", "(.*_end")))
            .getMessage());
    assertEquals("state rule entry \"app:open\": expected a capturing group naming the state, as in (.*)_entry",
        assertThrows(IllegalArgumentException.class, () -> StateRules.parse(List.of("app:open", "(app):close")))
            .getMessage());
  }

  @Test
  void theTextTellsReadingsApart() {
    assertEquals("(.*)_entry\n(.*)_exit\n(.*?)_entry(_.*)\n(.*?)_exit(_.*)\n", StateRules.DEFAULT.text());
  }
}
