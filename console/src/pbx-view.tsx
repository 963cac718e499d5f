import { useEffect, useRef, useState } from 'preact/hooks';
import { call } from './api.ts';
import { type Column, DataTable } from './data-table.tsx';
import { markChanges, type ShownLine } from './diff.ts';
import { StateEditor } from './state-editor.tsx';

interface ScenarioInfo {
  name: string;
  description: string;
}
interface ServedFace {
  path: string;
  status: number | null;
  contentType: string | null;
  body: string;
  error?: string;
}
interface ServedFaces {
  agentText: ServedFace;
  json: ServedFace;
  xml: ServedFace;
  at: number;
}
interface LogEntry {
  seq: number;
  at: number;
  level: string;
  source: string;
  message: string;
}
type FaceKey = 'agentText' | 'json' | 'xml';
/** `GET /clock`, and when the page read it (real time), so a running clock moves on the page. */
interface ClockReading {
  now: number;
  mode: 'frozen' | 'running';
  readAt: number;
}
const FACE_NAMES: Record<FaceKey, string> = { agentText: 'Agent text', json: 'JSON', xml: 'XML' };

interface PbxData {
  state: Record<string, unknown> & {
    monitoring?: { tileOn?: boolean };
    licence?: { valid?: boolean };
  };
  scenarios: ScenarioInfo[];
  faults: { active: string[]; known: string[] };
  clock: ClockReading;
  log: LogEntry[];
  tokens: Record<string, unknown>[];
  resolver: {
    settings: unknown;
    providers: unknown;
    searchLog: Record<string, unknown>[];
    callerId: unknown;
  };
}

/** The state a `<<<local>>>` line gives, as Checkmk names it. */
const STATES = ['OK', 'WARN', 'CRIT', 'UNKNOWN'];

type LocalCheck = ReturnType<typeof parseLocalChecks>[number];
const LOCAL_CHECK_COLUMNS: Column<LocalCheck>[] = [
  {
    header: 'State',
    cell: (check) => <span class={`state state-${check.state}`}>{STATES[check.state] ?? check.state}</span>,
  },
  { header: 'Service', cell: (check) => check.name },
  { header: 'Summary', cell: (check) => check.text },
];

/**
 * The PBX view (issue 32): scenario, tile and licence, faults, the clock, what each face of the
 * data endpoint serves now (the change since the previous fetch marked), the local checks, the
 * module-log tail, maintenance tokens, the resolver, and the state editor. Every change the page
 * makes goes through a declared control operation; every change from anywhere reaches it through
 * `GET /changes` (`revision` counts them).
 */
export function PbxView({
  base,
  revision,
  onError,
}: {
  base: string;
  revision: number;
  onError: (e: unknown) => void;
}) {
  const [data, setData] = useState<PbxData | null>(null);
  const [faces, setFaces] = useState<Record<FaceKey, ShownLine[]> | null>(null);
  const [faceMeta, setFaceMeta] = useState<ServedFaces | null>(null);
  const previous = useRef<Record<FaceKey, string | null>>({ agentText: null, json: null, xml: null });
  const [picked, setPicked] = useState<string>('');
  const [face, setFace] = useState<FaceKey>('agentText');
  const [duration, setDuration] = useState('1h');
  const [durationError, setDurationError] = useState<string | null>(null);
  const [status, setStatus] = useState('');

  const load = async () => {
    try {
      const [state, scenarios, faults, clock, log, tokens, settings, providers, searchLog, callerId, served] =
        await Promise.all([
          call<PbxData['state']>('GET', `${base}/state`),
          call<ScenarioInfo[]>('GET', `${base}/scenarios`),
          call<PbxData['faults']>('GET', `${base}/faults`),
          call<Omit<ClockReading, 'readAt'>>('GET', `${base}/clock`),
          call<LogEntry[]>('GET', `${base}/module-log`),
          call<Record<string, unknown>[]>('GET', `${base}/maintenance/tokens/stored`),
          call('GET', `${base}/resolver/settings`),
          call('GET', `${base}/resolver/providers`),
          call<Record<string, unknown>[]>('GET', `${base}/resolver/search-log`),
          call('GET', `${base}/resolver/caller-id`),
          call<ServedFaces>('GET', `${base}/faces`),
        ]);
      setData({
        state,
        scenarios,
        faults,
        clock: { ...clock, readAt: Date.now() },
        log: log.slice(-40),
        tokens,
        resolver: { settings, providers, searchLog: searchLog.slice(-10), callerId },
      });
      // A face marks what changed since the previous fetch that differed: a fetch that finds the
      // same body (two notices for one change) keeps the marks.
      const changed: Partial<Record<FaceKey, ShownLine[]>> = {};
      for (const key of Object.keys(FACE_NAMES) as FaceKey[]) {
        const body = faceText(served[key]);
        if (body === previous.current[key]) continue;
        changed[key] = markChanges(previous.current[key], body);
        previous.current[key] = body;
      }
      setFaces((old) => ({ ...(old ?? { agentText: [], json: [], xml: [] }), ...changed }));
      setFaceMeta(served);
    } catch (error) {
      onError(error);
    }
  };
  useEffect(() => {
    void load();
  }, [revision, base]);

  const act = async (label: string, run: () => Promise<unknown>) => {
    setStatus(`${label}…`);
    try {
      await run();
      setStatus(`${label}: done`);
    } catch (error) {
      setStatus(`${label}: ${(error as Error).message}`);
      onError(error);
    }
    await load();
  };

  if (!data) return <p>Loading the PBX…</p>;
  const selected = picked || data.scenarios[0]?.name || '';
  const description = data.scenarios.find((s) => s.name === selected)?.description ?? '';
  const localChecks = parseLocalChecks(previous.current.agentText ?? '');

  return (
    <div class="grid">
      <section aria-labelledby="scenario-h" class="card">
        <h2 id="scenario-h">Scenario</h2>
        <label for="scenario-pick">Scenario to load</label>
        <select id="scenario-pick" value={selected} onChange={(e) => setPicked(e.currentTarget.value)}>
          {data.scenarios.map((s) => (
            <option key={s.name} value={s.name}>
              {s.name}
            </option>
          ))}
        </select>
        <p id="scenario-description" class="description">
          {description}
        </p>
        <div class="actions">
          <button
            type="button"
            onClick={() => act(`load ${selected}`, () => call('PUT', `${base}/scenario`, { name: selected }))}
          >
            Load scenario
          </button>
          <button type="button" onClick={() => act('reset', () => call('POST', `${base}/reset`))}>
            Reset the PBX
          </button>
        </div>
        <p role="status" aria-live="polite" class="status">
          {status}
        </p>
      </section>

      <section aria-labelledby="switches-h" class="card">
        <h2 id="switches-h">Tile, licence and faults</h2>
        <Toggle
          id="tile-on"
          label="Monitoring tile on"
          checked={data.state.monitoring?.tileOn === true}
          onToggle={(on) =>
            act(`tile ${on ? 'on' : 'off'}`, () => call('PUT', `${base}/monitoring/tile`, { on }))
          }
        />
        <Toggle
          id="licence-valid"
          label="Licence valid"
          checked={data.state.licence?.valid === true}
          onToggle={(valid) =>
            act(`licence ${valid ? 'valid' : 'missing'}`, () => call('PUT', `${base}/licence`, { valid }))
          }
        />
        <fieldset>
          <legend>Faults</legend>
          {data.faults.known.map((name) => (
            <Toggle
              key={name}
              id={`fault-${name}`}
              label={name}
              checked={data.faults.active.includes(name)}
              onToggle={(on) =>
                act(`fault ${name} ${on ? 'on' : 'off'}`, () =>
                  on
                    ? call('POST', `${base}/faults`, { name })
                    : call('DELETE', `${base}/faults/${encodeURIComponent(name)}`),
                )
              }
            />
          ))}
        </fieldset>
      </section>

      <section aria-labelledby="clock-h" class="card">
        <h2 id="clock-h">Clock</h2>
        <ClockShown clock={data.clock} />
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const ms = parseDuration(duration);
            if (ms === null) {
              setDurationError('a duration such as 90s, 15m, 2h or 1d');
              return;
            }
            setDurationError(null);
            void act(`advance ${duration}`, () => call('POST', `${base}/clock/advance`, { ms }));
          }}
        >
          <label for="advance-by">Advance by</label>
          <input
            id="advance-by"
            value={duration}
            aria-invalid={durationError ? 'true' : 'false'}
            aria-describedby="advance-hint"
            onInput={(e) => setDuration(e.currentTarget.value)}
          />
          <button type="submit">Advance</button>
          <span id="advance-hint" class={durationError ? 'error' : 'hint'}>
            {durationError ?? 'e.g. 90s, 15m, 2h, 1d (frozen or running, the clock moves by this)'}
          </span>
        </form>
      </section>

      <section aria-labelledby="faces-h" class="card wide">
        <h2 id="faces-h">What the data endpoint serves now</h2>
        <div role="tablist" aria-label="Faces" class="tabs">
          {(Object.keys(FACE_NAMES) as FaceKey[]).map((key) => (
            <button
              key={key}
              type="button"
              role="tab"
              id={`face-tab-${key}`}
              aria-selected={face === key}
              aria-controls="face-panel"
              onClick={() => setFace(key)}
            >
              {FACE_NAMES[key]}
            </button>
          ))}
        </div>
        <div id="face-panel" role="tabpanel" aria-labelledby={`face-tab-${face}`}>
          <p class="hint" id="face-status">
            {faceMeta ? faceSummary(faceMeta[face]) : ''} Changed lines since the previous fetch are marked.
          </p>
          <pre id="face-body" tabIndex={0}>
            {(faces?.[face] ?? []).map((line, i) =>
              line.changed ? (
                <mark key={i} class="changed">
                  {line.text}
                  {'\n'}
                </mark>
              ) : (
                `${line.text}\n`
              ),
            )}
          </pre>
        </div>
      </section>

      <section aria-labelledby="local-h" class="card">
        <h2 id="local-h">Local checks</h2>
        <DataTable
          id="local-checks"
          columns={LOCAL_CHECK_COLUMNS}
          rows={localChecks}
          rowKey={(check) => check.name}
        />
      </section>

      <section aria-labelledby="log-h" class="card">
        <h2 id="log-h">Module log (last {data.log.length})</h2>
        <ol id="module-log" class="log" tabIndex={0} aria-label="Module log">
          {data.log.map((entry) => (
            <li key={entry.seq} class={`level-${entry.level}`}>
              <time>{new Date(entry.at).toISOString().slice(11, 19)}</time> [{entry.source}] {entry.message}
            </li>
          ))}
        </ol>
      </section>

      <section aria-labelledby="tokens-h" class="card">
        <h2 id="tokens-h">Maintenance tokens</h2>
        {data.tokens.length === 0 ? (
          <p>No maintenance-API token.</p>
        ) : (
          <RecordTable rows={data.tokens} label="Maintenance tokens" />
        )}
      </section>

      <section aria-labelledby="resolver-h" class="card">
        <h2 id="resolver-h">Web resolver</h2>
        <h3>Configuration</h3>
        <pre tabIndex={0}>
          {JSON.stringify({ settings: data.resolver.settings, providers: data.resolver.providers }, null, 2)}
        </pre>
        <h3>Last lookups</h3>
        {data.resolver.searchLog.length === 0 ? (
          <p>No lookup yet.</p>
        ) : (
          <RecordTable rows={data.resolver.searchLog} label="Resolver search log" />
        )}
        <p>Caller ID of the last call: {JSON.stringify(data.resolver.callerId)}</p>
      </section>

      <section aria-labelledby="state-h" class="card wide">
        <h2 id="state-h">State</h2>
        <StateEditor
          state={data.state}
          onSend={(overlay) =>
            act('send state', async () => {
              await call('PATCH', `${base}/state`, overlay);
              await call('POST', `${base}/snapshot/invalidate`);
            })
          }
        />
      </section>
    </div>
  );
}

/**
 * The virtual clock: frozen (it stands still until advanced) or running (it moves on the page
 * each second from the time read, as it does in the simulator). An advance made anywhere reaches
 * the page as a `clock` change notice, and the page reads the clock again.
 */
function ClockShown({ clock }: { clock: ClockReading }) {
  const [tick, setTick] = useState(() => Date.now());
  useEffect(() => {
    if (clock.mode !== 'running') return;
    setTick(Date.now());
    const timer = setInterval(() => setTick(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [clock]);
  const now = clock.mode === 'running' ? clock.now + Math.max(0, tick - clock.readAt) : clock.now;
  const shown = new Date(now).toISOString();
  return (
    <dl>
      <dt>Clock</dt>
      <dd id="clock-mode">{clock.mode}</dd>
      <dt>Virtual time</dt>
      <dd>
        <time id="clock-now" dateTime={shown}>
          {shown}
        </time>
      </dd>
    </dl>
  );
}

/** A checkbox that shows the user's choice at once and the control plane's answer once it is in. */
function Toggle(props: {
  id: string;
  label: string;
  checked: boolean;
  onToggle: (on: boolean) => Promise<void>;
}) {
  const [pending, setPending] = useState<boolean | null>(null);
  return (
    <div class="check">
      <input
        id={props.id}
        type="checkbox"
        checked={pending ?? props.checked}
        onChange={(e) => {
          const on = e.currentTarget.checked;
          setPending(on);
          void props.onToggle(on).finally(() => setPending(null));
        }}
      />
      <label for={props.id}>{props.label}</label>
    </div>
  );
}

function RecordTable({ rows, label }: { rows: Record<string, unknown>[]; label: string }) {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))].slice(0, 6);
  return (
    <DataTable
      label={label}
      columns={columns.map((c) => ({
        header: c,
        cell: (row: Record<string, unknown>) =>
          typeof row[c] === 'object' ? JSON.stringify(row[c]) : String(row[c] ?? ''),
      }))}
      rows={rows}
      rowKey={(_row, i) => i}
    />
  );
}

function faceText(face: ServedFace): string {
  if (face.status === null) return `(no answer: ${face.error ?? 'unknown'})`;
  return face.body;
}

function faceSummary(face: ServedFace): string {
  if (face.status === null) return `GET ${face.path}: no answer (${face.error ?? 'unknown'}).`;
  return `GET ${face.path}: ${face.status}, ${face.contentType ?? 'no content type'}, ${face.body.length} characters.`;
}

/** The `<<<local>>>` section's lines: `state "name" perfdata text` (the simulator quotes names). */
export function parseLocalChecks(agentText: string): { state: number; name: string; text: string }[] {
  const checks: { state: number; name: string; text: string }[] = [];
  let inLocal = false;
  for (const line of agentText.split('\n')) {
    if (line.startsWith('<<<')) {
      inLocal = line.startsWith('<<<local');
      continue;
    }
    if (!inLocal) continue;
    const match = /^([0-3P]) (?:"([^"]+)"|(\S+)) (\S+) (.*)$/.exec(line);
    if (match)
      checks.push({ state: Number(match[1]), name: match[2] ?? match[3] ?? '', text: match[5] ?? '' });
  }
  return checks;
}

/** `90s`, `15m`, `2h`, `1d`, `1h30m` → ms; `null` when it is not such a duration. */
export function parseDuration(text: string): number | null {
  const parts = [...text.trim().matchAll(/(\d{1,7})\s*(ms|s|m|h|d)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== text.trim().replace(/\s+/g, '')) return null;
  const unit: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
  return parts.reduce((sum, p) => sum + Number(p[1]) * (unit[p[2] ?? 'ms'] ?? 1), 0);
}
