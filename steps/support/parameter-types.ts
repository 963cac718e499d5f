import { defineParameterType } from '@cucumber/cucumber';
import { SNAPSHOT_KINDS, type SnapshotKind } from './snapshot-format.ts';

/** `{snapshot}`: `agent text`, `XML snapshot` or `JSON snapshot`. */
defineParameterType({
  name: 'snapshot',
  regexp: /agent text|XML snapshot|JSON snapshot/,
  transformer: (text: string): SnapshotKind => {
    const kind = SNAPSHOT_KINDS.find((k) => k === text);
    if (!kind) throw new Error(`unknown snapshot format ${text}`);
    return kind;
  },
});

/** `{names}`: `"a"`, `"a" and "b"`, `"a", "b" and "c"` (also `, ` only) → `['a', 'b', 'c']`. */
defineParameterType({
  name: 'names',
  regexp: /"[^"]*"(?:(?:, | and | or )"[^"]*")*/,
  transformer: (text: string): string[] => [...text.matchAll(/"([^"]*)"/g)].map((m) => m[1] ?? ''),
});

/** `{ints}`: `0`, `0, 2, 0` → numbers. */
defineParameterType({
  name: 'ints',
  regexp: /-?\d+(?:, -?\d+)*/,
  transformer: (text: string): number[] => text.split(', ').map(Number),
});
