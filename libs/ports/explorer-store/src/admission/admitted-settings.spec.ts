import { admittedSettings } from './admitted-settings';

describe('admittedSettings', () => {
  it('given a normal statement, then the engine only stops it when its budget runs out (seconds)', () => {
    expect(admittedSettings({ budgetMs: 29_500, priority: 'normal' }, true)).toEqual({ max_execution_time: 29.5 });
    expect(admittedSettings({ budgetMs: 1, priority: 'normal' }, false)).toEqual({ max_execution_time: 0.001 });
  });

  it('given a low-priority statement, then it runs on one thread, at the lowest CPU priority with chDB only', () => {
    expect(admittedSettings({ budgetMs: 30_000, priority: 'low' }, true)).toEqual({ max_execution_time: 30, max_threads: 1, os_threads_nice_value_query: 19 });
    expect(admittedSettings({ budgetMs: 30_000, priority: 'low' }, false)).toEqual({ max_execution_time: 30, max_threads: 1 });
  });
});
