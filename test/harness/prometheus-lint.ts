import parsePrometheusTextFormat, { type MetricFamily } from 'parse-prometheus-text-format';

/**
 * The problems `promtool check metrics` reports for an exposition (the rules
 * of client_golang's promlint), applied to the families a Prometheus
 * text-format parser reads from it: HELP and TYPE present; counters end in
 * `_total` and nothing else does; `_count`, `_sum`, `_bucket`, `le` and
 * `quantile` kept for histograms and summaries; base units, no abbreviated
 * units, no type in the name; snake_case names and labels without `:`.
 * Throws when the text is not valid exposition format.
 */
export function promlintProblems(exposition: string): string[] {
  return parsePrometheusTextFormat(exposition).flatMap((family) => familyProblems(family).map((problem) => `${family.name}: ${problem}`));
}

/** Units Prometheus names in base form, and the non-base ones promlint maps to them. */
const UNITS: Readonly<Record<string, string>> = {
  amperes: 'amperes', bytes: 'bytes', celsius: 'celsius', grams: 'grams', joules: 'joules', kelvin: 'kelvin', meters: 'meters', metres: 'metres', seconds: 'seconds', volts: 'volts',
  minutes: 'seconds', hours: 'seconds', days: 'seconds', weeks: 'seconds',
};
const UNIT_PREFIXES = ['pico', 'nano', 'micro', 'milli', 'centi', 'deci', 'deca', 'hecto', 'kilo', 'kibi', 'mega', 'mibi', 'giga', 'gibi', 'tera', 'tebi', 'peta', 'pebi'];
const UNIT_ABBREVIATIONS = ['s', 'ms', 'us', 'ns', 'sec', 'b', 'kb', 'mb', 'gb', 'tb', 'pb', 'm', 'h', 'd'];
const CAMEL_CASE = /[a-z][A-Z]/;

function familyProblems(family: MetricFamily): string[] {
  const { name, type } = family;
  const lower = name.toLowerCase();
  const words = lower.split('_');
  const labels = new Set(family.metrics.flatMap((sample) => Object.keys(sample.labels ?? {})));
  const problems: string[] = [];
  if (family.help === '') problems.push('no help text');
  if (type === 'UNTYPED') problems.push('no type');
  if (type === 'COUNTER' && !name.endsWith('_total')) problems.push('counter metrics should have "_total" suffix');
  if (type !== 'COUNTER' && type !== 'UNTYPED' && name.endsWith('_total')) problems.push('non-counter metrics should not have "_total" suffix');
  if (type !== 'UNTYPED' && type !== 'HISTOGRAM' && type !== 'SUMMARY') {
    for (const suffix of ['_count', '_sum', '_bucket']) if (name.endsWith(suffix)) problems.push(`non-histogram and non-summary metrics should not have "${suffix}" suffix`);
  }
  if (type !== 'HISTOGRAM' && labels.has('le')) problems.push('non-histogram metrics should not have "le" label');
  if (type !== 'SUMMARY' && labels.has('quantile')) problems.push('non-summary metrics should not have "quantile" label');
  if (type !== 'UNTYPED' && (lower.includes(`_${type.toLowerCase()}_`) || lower.endsWith(`_${type.toLowerCase()}`))) problems.push(`metric name should not include type '${type.toLowerCase()}'`);
  const unit = words.map((word) => unitOf(word)).find((found) => found !== undefined);
  if (unit && unit.unit !== unit.base) problems.push(`use base unit "${unit.base}" instead of "${unit.unit}"`);
  if (UNIT_ABBREVIATIONS.some((abbreviation) => lower.includes(`_${abbreviation}_`) || lower.endsWith(`_${abbreviation}`))) problems.push('metric names should not contain abbreviated units');
  if (CAMEL_CASE.test(name)) problems.push(`metric names should be written in 'snake_case' not 'camelCase'`);
  for (const label of labels) if (CAMEL_CASE.test(label)) problems.push(`label names should be written in 'snake_case' not 'camelCase' (${label})`);
  if (name.includes(':')) problems.push(`metric names should not contain ':'`);
  return problems;
}

function unitOf(word: string): { unit: string; base: string } | undefined {
  if (UNITS[word]) return { unit: word, base: UNITS[word] };
  const prefix = UNIT_PREFIXES.find((p) => word.startsWith(p) && UNITS[word.slice(p.length)]);
  return prefix === undefined ? undefined : { unit: word, base: UNITS[word.slice(prefix.length)] };
}
