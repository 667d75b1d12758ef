/**
 * Whether `work` settles (either way) before a timer of `ms`, set now,
 * fires; waits for both. Node runs due timers in the order they fall due,
 * however late it gets to them, so on a machine too busy for a wall-clock
 * bound this still tells apart work that ends without a timer, or on a
 * timer of its own due first (a pause's deadline, a command timeout), from
 * work that waits longer.
 */
export async function settlesBefore(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const fired = new Promise<'timer'>((resolve) => (timer = setTimeout(() => resolve('timer'), ms)));
  const settled = work.then(
    () => 'work' as const,
    () => 'work' as const,
  );
  const first = await Promise.race([settled, fired]);
  clearTimeout(timer);
  await settled;
  return first === 'work';
}
