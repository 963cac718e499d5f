import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { CallError, call, follow, hasToken, setToken, TokenNeeded } from './api.ts';
import { FleetView } from './fleet-view.tsx';
import { PbxView } from './pbx-view.tsx';
import { RecordingView } from './recording-view.tsx';
import './style.css';

/** What `/console/api/config` says about this simulator. */
export interface ConsoleConfig {
  /** Where the PBX's control operations are; `null`: no PBX here (a controller alone), the fleet view only. */
  pbxBase: string | null;
  tokenRequired: boolean;
  fleet: {
    apiUrl: string;
    mcpUrl: string;
    accounts: { email: string; role: string; partner: string }[];
    mcpTokens: { secret: string; accountId: string; level: string }[];
  } | null;
  recording: {
    file: string;
    timing: string;
    samples: { index: number; at: string; offsetMs: number; answers: number }[];
    current: number | null;
  } | null;
}

type View = 'pbx' | 'fleet' | 'recording';

function App() {
  const [config, setConfig] = useState<ConsoleConfig | null>(null);
  const [needToken, setNeedToken] = useState(0);
  const [view, setView] = useState<View>(() =>
    location.hash === '#fleet' ? 'fleet' : location.hash === '#recording' ? 'recording' : 'pbx',
  );
  const [pbxRevision, setPbxRevision] = useState(0);
  const [fleetRevision, setFleetRevision] = useState(0);
  const [live, setLive] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onError = (e: unknown) => {
    if (e instanceof TokenNeeded) setNeedToken((n) => n + 1);
    else setError(e instanceof CallError ? `${e.code}: ${e.message}` : String((e as Error).message ?? e));
  };

  const loadConfig = () =>
    call<ConsoleConfig>('GET', '/console/api/config').then((c) => {
      setNeedToken(0);
      setConfig(c);
    }, onError);
  useEffect(() => {
    void loadConfig();
  }, []);

  useEffect(() => {
    if (!config) return;
    const stop = new AbortController();
    if (config.pbxBase !== null)
      follow(
        `${config.pbxBase}/changes`,
        () => setPbxRevision((r) => r + 1),
        () => setLive(true),
        stop.signal,
      );
    if (config.fleet)
      follow(
        '/console/api/fleet/changes',
        () => setFleetRevision((r) => r + 1),
        () => {
          if (config.pbxBase === null) setLive(true);
        },
        stop.signal,
      );
    return () => stop.abort();
  }, [config]);

  useEffect(() => {
    history.replaceState(null, '', `#${view}`);
  }, [view]);

  if (needToken > 0) return <TokenForm key={needToken} onToken={loadConfig} again={hasToken()} />;
  if (!config) return <p>Connecting to the control plane…</p>;
  const views: [View, string][] = config.pbxBase === null ? [] : [['pbx', 'PBX']];
  if (config.fleet) views.push(['fleet', 'Fleet']);
  if (config.recording) views.push(['recording', 'Recording']);
  // A view this simulator does not have (a controller alone has no PBX) gives way to the first it has.
  const shown = views.some(([key]) => key === view) ? view : (views[0]?.[0] ?? 'pbx');
  return (
    <>
      <header>
        <h1>pbx-conformance console</h1>
        <nav aria-label="Views">
          {views.map(([key, label]) => (
            <button
              key={key}
              type="button"
              aria-current={shown === key ? 'page' : undefined}
              onClick={() => setView(key)}
            >
              {label}
            </button>
          ))}
        </nav>
        <span id="live" class={live ? 'live on' : 'live'} role="status">
          {live ? 'live' : 'connecting…'}
        </span>
      </header>
      {error ? (
        <div role="alert" class="banner-error">
          {error}{' '}
          <button type="button" onClick={() => setError(null)}>
            Dismiss
          </button>
        </div>
      ) : null}
      <main>
        {shown === 'pbx' && config.pbxBase !== null ? (
          <PbxView base={config.pbxBase} revision={pbxRevision} onError={onError} />
        ) : null}
        {shown === 'fleet' && config.fleet ? (
          <FleetView fleet={config.fleet} revision={fleetRevision} onError={onError} />
        ) : null}
        {shown === 'recording' && config.recording ? (
          <RecordingView recording={config.recording} revision={pbxRevision} onError={onError} />
        ) : null}
      </main>
    </>
  );
}

function TokenForm({ onToken, again }: { onToken: () => void; again: boolean }) {
  const [value, setValue] = useState('');
  return (
    <main>
      <form
        class="card token"
        onSubmit={(e) => {
          e.preventDefault();
          setToken(value.trim());
          onToken();
        }}
      >
        <h1>Control token</h1>
        <p>
          This control plane listens beyond loopback, so every call needs its token (the banner of{' '}
          <code>simulate</code> printed it). It is kept for this tab only.
        </p>
        {again ? (
          <p role="alert" class="error">
            That token was refused.
          </p>
        ) : null}
        <label for="control-token">Control token</label>
        <input
          id="control-token"
          type="password"
          autoComplete="off"
          value={value}
          onInput={(e) => setValue(e.currentTarget.value)}
        />
        <button type="submit" disabled={value.trim() === ''}>
          Use this token
        </button>
      </form>
    </main>
  );
}

const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(<App />, root);
}
