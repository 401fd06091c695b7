package org.ocelotl.trace;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Which punctual events of a trace open and close states, for formats whose states are pairs of
 * events (CTF): rules of an entry and an exit regular expression, tried in order on each event
 * name. An entry opens, and an exit closes, the state named by the text its capturing groups
 * matched, joined; an exit closes the innermost open entry of the same state. The first rule
 * whose entry or exit matches the whole name decides; a name no rule matches is a punctual event.
 *
 * <p>{@link #DEFAULT} is LTTng's convention: {@code X_entry}/{@code X_exit} → state {@code X}, and
 * the marker inside the name as kernel traces put it ({@code syscall_entry_read} →
 * {@code syscall_read}).
 */
public record StateRules(List<Rule> rules) {
  /** One pair: an event matching {@code entry} opens, one matching {@code exit} closes. */
  public record Rule(Pattern entry, Pattern exit) {}

  /** What an event is under the rules: an entry or an exit of {@code state}. */
  public record Role(boolean entry, String state) {}

  public static final StateRules DEFAULT = parse(List.of(
      "(.*)_entry", "(.*)_exit",
      "(.*?)_entry(_.*)", "(.*?)_exit(_.*)"));

  public StateRules {
    rules = List.copyOf(rules);
  }

  /**
   * Rules from (entry, exit) regular expression pairs, as the user writes them.
   *
   * @throws IllegalArgumentException naming the expression that does not compile or captures nothing
   */
  public static StateRules parse(List<String> entryExitPairs) {
    if (entryExitPairs.isEmpty() || entryExitPairs.size() % 2 != 0) {
      throw new IllegalArgumentException("state rules: expected pairs of an entry and an exit regular expression, found "
          + entryExitPairs.size() + " expression(s)");
    }
    List<Rule> rules = new ArrayList<>();
    for (int i = 0; i < entryExitPairs.size(); i += 2) {
      rules.add(new Rule(compile(entryExitPairs.get(i), "entry"), compile(entryExitPairs.get(i + 1), "exit")));
    }
    return new StateRules(rules);
  }

  private static Pattern compile(String regex, String role) {
    Pattern pattern;
    try {
      pattern = Pattern.compile(regex);
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException("state rule " + role + " \"" + regex + "\": not a regular expression ("
          + e.getDescription() + " at character " + e.getIndex() + ")");
    }
    if (pattern.matcher("").groupCount() == 0) {
      throw new IllegalArgumentException("state rule " + role + " \"" + regex
          + "\": expected a capturing group naming the state, as in (.*)_" + role);
    }
    return pattern;
  }

  /** The role of events named {@code name}, or null for a punctual event. Called once per event kind. */
  public Role role(String name) {
    for (Rule rule : rules) {
      String state = state(rule.entry(), name);
      if (state != null) {
        return new Role(true, state);
      }
      state = state(rule.exit(), name);
      if (state != null) {
        return new Role(false, state);
      }
    }
    return null;
  }

  private static String state(Pattern pattern, String name) {
    Matcher m = pattern.matcher(name);
    if (!m.matches()) {
      return null;
    }
    StringBuilder state = new StringBuilder();
    for (int g = 1; g <= m.groupCount(); g++) {
      if (m.group(g) != null) {
        state.append(m.group(g));
      }
    }
    return state.toString();
  }

  /** The rules as the user wrote them, each expression on its own line: what tells two readings apart. */
  public String text() {
    StringBuilder text = new StringBuilder();
    for (Rule rule : rules) {
      text.append(rule.entry().pattern()).append('\n').append(rule.exit().pattern()).append('\n');
    }
    return text.toString();
  }
}
