export const suites = [] as import('./bench-row').BenchSuite[];
