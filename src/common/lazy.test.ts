import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ModuleLoadError, onFirstUse, withoutGlobal } from './lazy.js';

/** Modules loaded on their first use (docs/decisions.md "Process memory: modules on first use"). */
describe('onFirstUse', () => {
  it('loads once, on the first call, and shares the load between calls made meanwhile', async () => {
    let loads = 0;
    const load = onFirstUse('a test module', async () => ({ value: ++loads }));
    expect(loads).toBe(0);
    const [a, b] = await Promise.all([load(), load()]);
    expect(a).toBe(b);
    expect(await load()).toBe(a);
    expect(loads).toBe(1);
  });

  it('names the module when its load fails, and tries again on the next call', async () => {
    let attempts = 0;
    const load = onFirstUse('the test parser (test-parser)', async () => {
      attempts += 1;
      if (attempts === 1) throw new Error("Cannot find package 'test-parser'");
      return 'loaded';
    });
    const failed = await load().catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(ModuleLoadError);
    expect((failed as Error).message).toBe("Feeder could not load the test parser (test-parser): Cannot find package 'test-parser'");
    expect(await load()).toBe('loaded');
    expect(attempts).toBe(2);
  });

  it('a real import that fails is a ModuleLoadError, not a hang', async () => {
    const load = onFirstUse('a module that is not there', () => import(join(tmpdir(), 'feeder-no-such-module.js')));
    await expect(load()).rejects.toThrow(/^Feeder could not load a module that is not there: /);
  });
});

describe('withoutGlobal', () => {
  it('hides a global while its callback runs and puts it back untouched, also when the callback throws', () => {
    let reads = 0;
    const key = 'feederTestLazyGlobal';
    Object.defineProperty(globalThis, key, { configurable: true, enumerable: false, get: () => ++reads });
    const before = Object.getOwnPropertyDescriptor(globalThis, key);
    try {
      expect(withoutGlobal(key, () => (globalThis as Record<string, unknown>)[key])).toBeUndefined();
      expect(() =>
        withoutGlobal(key, () => {
          throw new Error('inside');
        }),
      ).toThrow('inside');
      // Put back as it was, and never read: the getter (Node's loader of the global) did not run.
      expect(Object.getOwnPropertyDescriptor(globalThis, key)).toEqual(before);
      expect(reads).toBe(0);
    } finally {
      delete (globalThis as Record<string, unknown>)[key];
    }
  });

  it('leaves no global behind when there was none', () => {
    expect(withoutGlobal('feederTestNoSuchGlobal', () => 1)).toBe(1);
    expect(Object.getOwnPropertyDescriptor(globalThis, 'feederTestNoSuchGlobal')).toBeUndefined();
  });
});
