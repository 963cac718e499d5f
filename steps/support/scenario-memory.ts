/**
 * A key of the World's scenario memory and the type of the value kept under it. Declared once
 * beside the steps that use it (`memoryKey<number>('busyPort')`), so `get` and `set` are typed
 * and no step casts what it reads back.
 */
export interface MemoryKey<T> {
  readonly name: string;
  /** Carries `T` for the type checker only; never set. */
  readonly type?: (value: T) => T;
}

export function memoryKey<T>(name: string): MemoryKey<T> {
  return { name };
}

/** Values a scenario keeps between its steps (earlier bodies, counts, ports), by typed key. */
export class ScenarioMemory {
  readonly #values = new Map<string, unknown>();

  set<T>(key: MemoryKey<T>, value: T): void {
    this.#values.set(key.name, value);
  }

  get<T>(key: MemoryKey<T>): T | undefined {
    // Only `set` writes, and it takes a value of the key's type.
    return this.#values.get(key.name) as T | undefined;
  }

  /** The value an earlier step kept; a missing one is a broken scenario, not a verdict. */
  require<T>(key: MemoryKey<T>): T {
    if (!this.#values.has(key.name))
      throw new Error(`no "${key.name}" kept: an earlier step of the scenario must set it`);
    return this.#values.get(key.name) as T;
  }
}
