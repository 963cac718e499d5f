import type { PbxState } from './types.ts';

/**
 * A copy of a plain JSON-like value (objects, arrays, strings, numbers, booleans, `null`): new
 * objects and arrays, the same strings. Strings are immutable, so sharing them is safe; unlike
 * `structuredClone`, which copies every string, a PBX's state then costs about half the memory and
 * a quarter of the time to copy (issue 31 §4: 6.5 against 11.3 KiB, 61 against 265 µs for the
 * `healthy` scenario).
 */
export function copyState<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(copyState) as T;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = copyState((value as Record<string, unknown>)[key]);
    // An own `__proto__` key (JSON.parse makes one) stays a key, never a prototype.
    if (key === '__proto__')
      Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true });
    else copy[key] = item;
  }
  return copy as T;
}

/** Freezes `value` and everything under it; returns it. */
export function freezeState<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  for (const key of Object.keys(value)) freezeState((value as Record<string, unknown>)[key]);
  return Object.freeze(value);
}

/**
 * A state that many PBXs may start from (a shard's, a pooled fleet's): frozen through and through,
 * so each PBX keeps it as its baseline instead of a copy of its own (`PbxStore`).
 */
export function shareableState(state: PbxState): Readonly<PbxState> {
  return freezeState(state);
}
