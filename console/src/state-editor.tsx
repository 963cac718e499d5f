import { useState } from 'preact/hooks';
import {
  checkLeaf,
  isObjectNode,
  leafKind,
  resolve,
  type SchemaNode,
  STATE_SCHEMA,
  setAt,
  valueAt,
} from './schema-form.ts';

type Edits = Record<string, string | boolean>;

interface Props {
  state: unknown;
  /** Sends the overlay (PATCH /state, then the snapshot is taken afresh). */
  onSend: (overlay: Record<string, unknown>) => Promise<void>;
}

/**
 * The state editor (issue 32): one field per leaf of `stateOverlay` in
 * schemas/pbx-scenario.schema.json, filled with the current state. Only the fields the user
 * changed are sent, as a deep-partial overlay, and only once every one of them passes its schema
 * (type, range, enumeration, pattern); a field that does not is marked and names why.
 */
export function StateEditor({ state, onSend }: Props) {
  const [edits, setEdits] = useState<Edits>({});
  const [sending, setSending] = useState(false);
  const checks = Object.entries(edits).map(([key, raw]) => {
    const path = key.split('.');
    return { key, path, result: checkLeaf(nodeAt(path), raw) };
  });
  const errors = new Map(
    checks.flatMap((c) => ('error' in c.result ? [[c.key, c.result.error] as const] : [])),
  );
  const send = async (event: Event) => {
    event.preventDefault();
    if (errors.size > 0 || checks.length === 0) return;
    const overlay: Record<string, unknown> = {};
    for (const check of checks) if ('value' in check.result) setAt(overlay, check.path, check.result.value);
    setSending(true);
    try {
      await onSend(overlay);
      setEdits({});
    } finally {
      setSending(false);
    }
  };
  const properties = STATE_SCHEMA.properties ?? {};
  return (
    <form onSubmit={send} aria-label="State editor">
      <p class="hint">
        Generated from <code>schemas/pbx-scenario.schema.json</code>. Changed fields are checked against the
        schema, then sent as one <code>PATCH /state</code>.
      </p>
      {Object.entries(properties).map(([key, node]) => (
        <Section
          key={key}
          path={[key]}
          node={node}
          state={state}
          edits={edits}
          errors={errors}
          setEdits={setEdits}
        />
      ))}
      <div class="actions">
        <button type="submit" disabled={sending || checks.length === 0 || errors.size > 0}>
          Send {checks.length} change{checks.length === 1 ? '' : 's'}
        </button>
        <button type="button" disabled={checks.length === 0} onClick={() => setEdits({})}>
          Discard
        </button>
        {errors.size > 0 ? (
          <span role="alert" class="error">
            {errors.size} field{errors.size === 1 ? '' : 's'} not valid: nothing sent
          </span>
        ) : null}
      </div>
    </form>
  );
}

function nodeAt(path: readonly string[]): SchemaNode {
  let node: SchemaNode = STATE_SCHEMA;
  for (const key of path) node = resolve(resolve(node).properties?.[key] ?? {});
  return node;
}

interface SectionProps {
  path: string[];
  node: SchemaNode;
  state: unknown;
  edits: Edits;
  errors: Map<string, string>;
  setEdits: (update: (edits: Edits) => Edits) => void;
}

function Section(props: SectionProps) {
  const { path, node } = props;
  const resolved = resolve(node);
  if (!isObjectNode(node)) return <Leaf {...props} />;
  const changed = Object.keys(props.edits).filter((k) => k.startsWith(`${path.join('.')}.`)).length;
  return (
    <details class="section" data-path={path.join('.')}>
      <summary>
        {path[path.length - 1]}
        {changed > 0 ? <span class="badge"> {changed} changed</span> : null}
      </summary>
      <div class="fields">
        {Object.entries(resolved.properties ?? {}).map(([key, child]) => (
          <Section {...props} key={key} path={[...path, key]} node={child} />
        ))}
      </div>
    </details>
  );
}

function Leaf({ path, node, state, edits, errors, setEdits }: SectionProps) {
  const key = path.join('.');
  const id = `field-${key}`;
  const kind = leafKind(node);
  const resolved = resolve(node);
  const current = valueAt(state, path);
  const edited = edits[key];
  const error = errors.get(key);
  const change = (value: string | boolean) => setEdits((all) => ({ ...all, [key]: value }));
  const shown =
    edited ?? (kind === 'json' ? JSON.stringify(current ?? null) : current === undefined ? '' : current);
  const common = {
    id,
    name: key,
    'aria-invalid': error ? ('true' as const) : ('false' as const),
    'aria-describedby': error ? `${id}-error` : undefined,
  };
  let input: preact.JSX.Element;
  if (kind === 'boolean')
    input = (
      <input
        {...common}
        type="checkbox"
        checked={shown === true}
        onChange={(e) => change(e.currentTarget.checked)}
      />
    );
  else if (kind === 'enum')
    input = (
      <select {...common} value={String(shown)} onChange={(e) => change(e.currentTarget.value)}>
        {(resolved.enum ?? []).map((option) => (
          <option key={String(option)} value={String(option)}>
            {String(option)}
          </option>
        ))}
      </select>
    );
  else if (kind === 'json')
    input = (
      <textarea {...common} rows={2} value={String(shown)} onInput={(e) => change(e.currentTarget.value)} />
    );
  else
    input = (
      <input
        {...common}
        type="text"
        inputMode={kind === 'string' ? 'text' : 'decimal'}
        value={String(shown)}
        onInput={(e) => change(e.currentTarget.value)}
      />
    );
  return (
    <div class={`field${edited !== undefined ? ' edited' : ''}`}>
      <label for={id}>
        {path[path.length - 1]}{' '}
        <span class="type">{kind === 'json' ? String(resolved.type ?? 'json') : kind}</span>
      </label>
      {input}
      {error ? (
        <span id={`${id}-error`} class="error">
          {error}
        </span>
      ) : null}
    </div>
  );
}
