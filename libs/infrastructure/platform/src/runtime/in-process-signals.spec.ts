import { InProcessSignals } from './in-process-signals';

describe('InProcessSignals', () => {
  it('calls the listeners of a name until they unsubscribe', () => {
    const signals = new InProcessSignals();
    const calls: string[] = [];
    const offA = signals.on('work', () => calls.push('a'));
    signals.on('work', () => calls.push('b'));
    signals.on('other', () => calls.push('other'));
    signals.emit('work');
    offA();
    signals.emit('work');
    signals.emit('nobody');
    expect(calls).toEqual(['a', 'b', 'b']);
  });
});
