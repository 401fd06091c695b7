// Times as the analyst types them (decision 036): a bare number is in the trace's unit, absolute;
// a number with a unit suffix (150ms, 2.5s, 300us, 10ns, 1.5min, 1h) is a time since the trace's
// start, as the axes show it. The text itself goes into the URL and to the server, which converts
// it exactly; the page reads it only to check a window before asking and to name it both ways.
import { since, time } from './format.js';

/** Each suffix's length as a power of ten of seconds, or a multiple of a second. */
const SUFFIXES = { ns: [1, -9], us: [1, -6], 'µs': [1, -6], ms: [1, -3], s: [1, 0], min: [60, 0], h: [3600, 0] };
const SUFFIX_LIST = 'ns, us, ms, s, min or h';
const TEXT = /^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*(\p{L}+)\s*$/u;

/**
 * The trace time `text` names on `trace` ({origin, unit}: what times since its start count from,
 * decision 053) as {value}, or {error} naming `what`.
 * The decimal exponent is shifted in the text, so 150ms on a trace in ns reads 150e6 exactly.
 */
export function traceTime(text, trace, what) {
  const m = TEXT.exec(text);
  if (!m) {
    const x = Number(text);
    return text.trim() !== '' && Number.isFinite(x) ? { value: x }
      : { error: `${what}: expected a number in the trace's unit, or a time since its start with ${SUFFIX_LIST} (150ms), found “${text}”` };
  }
  const suffix = SUFFIXES[m[2]];
  if (!suffix) return { error: `${what}: unknown time unit '${m[2]}' in '${text.trim()}': expected ${SUFFIX_LIST}` };
  const [multiple, power] = suffix;
  const seconds = Number(m[1]) * multiple;
  const ticks = /^ticks@(\d+)\/s$/.exec(trace.unit);
  if (ticks) return { value: trace.origin + seconds * 10 ** power * Number(ticks[1]) };
  const unit = SUFFIXES[trace.unit];
  if (!unit || unit[0] !== 1) return { error: `${what}: this trace's times are in ${trace.unit}, which has no length in seconds; give a bare number` };
  return { value: trace.origin + Number(`${seconds}e${power - unit[1]}`) };
}

/**
 * A window both ways: since the trace's start in the unit of `scale` (the answer's timeScale), and
 * in the trace's own unit, absolute, as a bare number in the settings means it.
 */
export function bothWays(from, to, scale, trace) {
  const span = (to - from) * scale.factor;
  return `${time(since(from, scale), span, '')} – ${time(since(to, scale), span, scale.unit)} since the start`
    + ` = ${from} – ${to} ${trace.unit} (trace time)`;
}
