import { describe, expect, it } from 'vitest';
import { HostLimiter } from './host-limiter.js';
import { turn } from '../test/wait.js';

/** A task that runs until its `finish` is called, and says whether it started. */
function gate() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const state = { started: false };
  const task = async () => {
    state.started = true;
    await done;
    return 'ok';
  };
  return { task, finish, state };
}

describe('HostLimiter', () => {
  it('runs at most its limit per host in arrival order, other hosts meanwhile, and forgets an idle host', async () => {
    const limiter = new HostLimiter(2);
    const [a1, a2, a3, b1] = [gate(), gate(), gate(), gate()];
    const runs = [
      limiter.run('https://a.example/1', a1.task),
      limiter.run('https://A.example/2', a2.task), // the same host, whatever its case
      limiter.run('https://a.example/3', a3.task),
      limiter.run('https://b.example/1', b1.task),
    ];
    await turn();
    expect([a1.state.started, a2.state.started, a3.state.started, b1.state.started]).toEqual([true, true, false, true]);
    a2.finish();
    await turn();
    expect(a3.state.started).toBe(true);
    for (const g of [a1, a3, b1]) g.finish();
    expect(await Promise.all(runs)).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(limiter.busyHosts).toBe(0);
  });

  it('gives the turn back when a task fails, and lets a waiter whose signal aborts leave without running', async () => {
    const limiter = new HostLimiter(1);
    const first = gate();
    const running = limiter.run('https://a.example/', first.task);
    const controller = new AbortController();
    const leaving = gate();
    const left = limiter.run('https://a.example/x', leaving.task, controller.signal);
    const failing = limiter.run('https://a.example/y', () => Promise.reject(new Error('refused')));
    controller.abort(new Error('shutting down'));
    await expect(left).rejects.toThrow('shutting down');
    expect(leaving.state.started).toBe(false);
    first.finish();
    await running;
    await expect(failing).rejects.toThrow('refused');
    expect(limiter.busyHosts).toBe(0);
    // The host's turn is free again.
    expect(await limiter.run('https://a.example/z', async () => 'again')).toBe('again');
    expect(limiter.busyHosts).toBe(0);
  });

  it('forgets a host whose only waiter left before its turn came, once the holder is done', async () => {
    const limiter = new HostLimiter(1);
    const holder = gate();
    const running = limiter.run('https://a.example/', holder.task);
    const gone = new AbortController();
    gone.abort(new Error('gone'));
    await expect(limiter.run('https://a.example/', async () => 'never', gone.signal)).rejects.toThrow('gone');
    expect(limiter.busyHosts).toBe(1);
    holder.finish();
    await running;
    expect(limiter.busyHosts).toBe(0);
  });
});
