import type { RunningEngine } from './engines';

export default async function globalTeardown(): Promise<void> {
  const engines = ((globalThis as Record<string, unknown>).__BPC_ENGINES__ ?? []) as RunningEngine[];
  await Promise.all(engines.map((e) => e.stop()));
}
