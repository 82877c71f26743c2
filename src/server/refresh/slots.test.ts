import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { Slots } from './slots.js';
import { turn } from '../test/wait.js';

describe('Slots', () => {
  it('gives out at most its size, and a slot given back goes to the first waiter', async () => {
    const slots = new Slots(2);
    const got: number[] = [];
    const take = (n: number) => slots.acquire().then(() => got.push(n));
    void take(1);
    void take(2);
    void take(3);
    void take(4);
    await turn();
    expect(got).toEqual([1, 2]);
    expect(slots.inUse).toBe(2);
    expect(slots.waiting).toBe(2);
    slots.release();
    await turn();
    expect(got).toEqual([1, 2, 3]);
    expect(slots.inUse).toBe(2);
    slots.release();
    slots.release();
    await turn();
    expect(got).toEqual([1, 2, 3, 4]);
    expect(slots.inUse).toBe(1);
    expect(slots.waiting).toBe(0);
    slots.release();
    expect(slots.inUse).toBe(0);
    // A release too many (a bug) never makes room beyond the size.
    slots.release();
    expect(slots.inUse).toBe(0);
  });

  it('lets a waiter whose signal aborts leave the line with its reason, and keeps the slot for the next', async () => {
    const slots = new Slots(1);
    await slots.acquire();
    const controller = new AbortController();
    const leaving = slots.acquire(controller.signal);
    let nextHasIt = false;
    const next = slots.acquire(new AbortController().signal).then(() => (nextHasIt = true));
    expect(slots.waiting).toBe(2);
    controller.abort(new Error('shutting down'));
    await expect(leaving).rejects.toThrow('shutting down');
    expect(slots.waiting).toBe(1);
    slots.release();
    await next;
    expect(nextHasIt).toBe(true);
    expect(slots.inUse).toBe(1);
    // Already aborted: refused at once, nothing taken.
    const gone = new AbortController();
    gone.abort(new Error('gone'));
    await expect(slots.acquire(gone.signal)).rejects.toThrow('gone');
    expect(slots.waiting).toBe(0);
    expect(slots.inUse).toBe(1);
  });

  it('stops listening on a signal once the slot is given, so a long-lived signal collects nothing', async () => {
    const slots = new Slots(1);
    const shutdown = new AbortController();
    for (let i = 0; i < 20; i++) {
      const pending = slots.acquire(shutdown.signal);
      if (i > 0) slots.release();
      await pending;
    }
    slots.release();
    expect(getEventListeners(shutdown.signal, 'abort')).toHaveLength(0);
    expect(slots.inUse).toBe(0);
  });
});
