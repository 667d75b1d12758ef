/** A sample's value in Prometheus text (`name` with its labels, as written), 0 when the sample is absent. */
export function metricValue(text: string, name: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.slice(name.length + 1)) : 0;
}
