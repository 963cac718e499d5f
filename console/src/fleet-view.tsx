import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { call } from './api.ts';
import { type Column, DataTable } from './data-table.tsx';
import type { ConsoleConfig } from './main.tsx';

interface AttentionItem {
  id: number;
  module: string;
  subject: string;
  description?: string;
  severity: string;
  firstAt: number;
  lastAt: number;
  occurrences: number;
}
interface Site {
  id: string;
  displayName: string;
  attention: string[];
  attentionEvents: AttentionItem[];
}

type Fleet = NonNullable<ConsoleConfig['fleet']>;

const MCP_TOKEN_COLUMNS: Column<Fleet['mcpTokens'][number]>[] = [
  { header: 'Token', cell: (t) => <code>{t.secret}</code> },
  { header: 'Account', cell: (t) => t.accountId },
  { header: 'Level', cell: (t) => t.level },
];

/** Height of one row of the site list; only the rows in view (and a few beyond) are in the page. */
const ROW_PX = 30;
const OVERSCAN = 8;

/**
 * The fleet view (issue 32): the sites the chosen demo account sees (the controller's REST site
 * list), searchable and filtered by attention finding, drawn with virtual scrolling so 10,000
 * sites stay fast; one site's details and inventory; the open attention events as a live feed,
 * acknowledged through the REST API as the chosen account; the demo MCP tokens.
 */
export function FleetView({
  fleet,
  revision,
  onError,
}: {
  fleet: Fleet;
  revision: number;
  onError: (e: unknown) => void;
}) {
  const [account, setAccount] = useState(fleet.accounts[0]?.email ?? '');
  const [sites, setSites] = useState<Site[] | null>(null);
  const [query, setQuery] = useState('');
  const [finding, setFinding] = useState('');
  const [selected, setSelected] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const as = { 'x-console-account': account };

  const load = async () => {
    try {
      setSites(await call<Site[]>('GET', '/console/api/rest/sites', undefined, as));
    } catch (error) {
      onError(error);
    }
  };
  useEffect(() => {
    void load();
  }, [revision, account]);

  const findings = useMemo(() => [...new Set((sites ?? []).flatMap((s) => s.attention))].sort(), [sites]);
  const shown = useMemo(() => {
    const needle = query.trim().toLowerCase();
    return (sites ?? []).filter(
      (s) =>
        (finding === '' || s.attention.includes(finding)) &&
        (needle === '' ||
          s.id.toLowerCase().includes(needle) ||
          s.displayName.toLowerCase().includes(needle)),
    );
  }, [sites, query, finding]);
  const feed = useMemo(
    () =>
      (sites ?? [])
        .flatMap((site) => site.attentionEvents.map((item) => ({ site, item })))
        .sort((a, b) => b.item.lastAt - a.item.lastAt)
        .slice(0, 200),
    [sites],
  );

  const acknowledge = async (siteId: string, item: AttentionItem) => {
    setStatus(`acknowledging ${item.subject}…`);
    try {
      await call(
        'POST',
        `/console/api/rest/sites/${encodeURIComponent(siteId)}/attention/${item.id}/acknowledge`,
        {},
        as,
      );
      setStatus(`acknowledged "${item.subject}" as ${account}`);
    } catch (error) {
      setStatus(`not acknowledged: ${(error as Error).message}`);
    }
    await load();
  };

  const site = sites?.find((s) => s.id === selected) ?? null;
  return (
    <div class="grid">
      <section class="card wide" aria-labelledby="sites-h">
        <h2 id="sites-h">Sites</h2>
        <div class="actions">
          <label for="fleet-account">Act as</label>
          <select id="fleet-account" value={account} onChange={(e) => setAccount(e.currentTarget.value)}>
            {fleet.accounts.map((a) => (
              <option key={a.email} value={a.email}>
                {a.email} ({a.role}, {a.partner})
              </option>
            ))}
          </select>
          <label for="site-search">Search sites</label>
          <input
            id="site-search"
            type="search"
            value={query}
            onInput={(e) => setQuery(e.currentTarget.value)}
          />
          <label for="site-finding">Attention</label>
          <select id="site-finding" value={finding} onChange={(e) => setFinding(e.currentTarget.value)}>
            <option value="">any</option>
            {findings.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </select>
          <span id="site-count" role="status">
            {sites ? `${shown.length} of ${sites.length} sites` : 'loading…'}
          </span>
        </div>
        <SiteList sites={shown} selected={selected} onSelect={setSelected} />
      </section>

      <section class="card" aria-labelledby="site-h">
        <h2 id="site-h">Site {site ? site.displayName : ''}</h2>
        {site ? (
          <SiteDetail site={site} onError={onError} />
        ) : (
          <p>Pick a site in the list (Enter or a click).</p>
        )}
      </section>

      <section class="card" aria-labelledby="feed-h">
        <h2 id="feed-h">Attention events (live)</h2>
        <p role="status" aria-live="polite" class="status" id="ack-status">
          {status}
        </p>
        {feed.length === 0 ? <p>No open attention event.</p> : null}
        <ul id="attention-feed" class="feed">
          {feed.map(({ site: s, item }) => (
            <li key={`${s.id}-${item.id}`} data-item={item.id} data-site={s.id}>
              <span class={`sev sev-${item.severity}`}>{item.severity}</span>
              <span>
                <strong>{s.displayName}</strong>: {item.module}: {item.subject}
                {item.occurrences > 1 ? ` (${item.occurrences}×)` : ''}
              </span>
              <time>{new Date(item.lastAt).toISOString().slice(0, 19).replace('T', ' ')}</time>
              <button
                type="button"
                onClick={() => acknowledge(s.id, item)}
                aria-label={`Acknowledge ${item.subject} at ${s.displayName}`}
              >
                Acknowledge
              </button>
            </li>
          ))}
        </ul>
      </section>

      <section class="card" aria-labelledby="mcp-h">
        <h2 id="mcp-h">MCP tokens</h2>
        <p>
          MCP endpoint: <code>{fleet.mcpUrl}</code> (Bearer token)
        </p>
        <DataTable
          id="mcp-tokens"
          columns={MCP_TOKEN_COLUMNS}
          rows={fleet.mcpTokens}
          rowKey={(t) => t.secret}
        />
      </section>
    </div>
  );
}

/** The site list with virtual scrolling: a listbox whose rows outside the view are not drawn. */
function SiteList({
  sites,
  selected,
  onSelect,
}: {
  sites: Site[];
  selected: string | null;
  onSelect: (id: string) => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [top, setTop] = useState(0);
  const [height, setHeight] = useState(448);
  const [active, setActive] = useState(0);
  useEffect(() => {
    if (box.current) setHeight(box.current.clientHeight);
  }, []);
  useEffect(() => setActive(0), [sites]);
  const first = Math.max(0, Math.floor(top / ROW_PX) - OVERSCAN);
  const last = Math.min(sites.length, Math.ceil((top + height) / ROW_PX) + OVERSCAN);
  const move = (to: number) => {
    const next = Math.max(0, Math.min(sites.length - 1, to));
    setActive(next);
    const el = box.current;
    if (!el) return;
    if (next * ROW_PX < el.scrollTop) el.scrollTop = next * ROW_PX;
    else if ((next + 1) * ROW_PX > el.scrollTop + el.clientHeight)
      el.scrollTop = (next + 1) * ROW_PX - el.clientHeight;
  };
  const activeSite = sites[active];
  return (
    <div
      ref={box}
      id="site-list"
      class="sites"
      role="listbox"
      tabIndex={0}
      aria-label="Sites"
      aria-activedescendant={activeSite ? `site-row-${active}` : undefined}
      onScroll={(e) => setTop(e.currentTarget.scrollTop)}
      onKeyDown={(e) => {
        if (e.key === 'ArrowDown') move(active + 1);
        else if (e.key === 'ArrowUp') move(active - 1);
        else if (e.key === 'PageDown') move(active + Math.floor(height / ROW_PX));
        else if (e.key === 'PageUp') move(active - Math.floor(height / ROW_PX));
        else if (e.key === 'Home') move(0);
        else if (e.key === 'End') move(sites.length - 1);
        else if ((e.key === 'Enter' || e.key === ' ') && activeSite) onSelect(activeSite.id);
        else return;
        e.preventDefault();
      }}
    >
      <div style={{ height: `${sites.length * ROW_PX}px` }} />
      {sites.slice(first, last).map((site, i) => {
        const index = first + i;
        return (
          // biome-ignore lint/a11y/useKeyWithClickEvents: the listbox takes the keys (aria-activedescendant)
          // biome-ignore lint/a11y/useFocusableInteractive: the listbox holds the focus, its options do not
          <div
            key={site.id}
            id={`site-row-${index}`}
            role="option"
            aria-selected={selected === site.id}
            class={`row${index === active ? ' active' : ''}`}
            style={{ top: `${index * ROW_PX}px`, height: `${ROW_PX}px` }}
            data-site={site.id}
            onClick={() => {
              setActive(index);
              onSelect(site.id);
            }}
          >
            <span>{site.displayName}</span>
            <code>{site.id}</code>
            <span>{site.attention.length === 0 ? 'no attention' : site.attention.join(', ')}</span>
          </div>
        );
      })}
    </div>
  );
}

function SiteDetail({ site, onError }: { site: Site; onError: (e: unknown) => void }) {
  const [inventory, setInventory] = useState<unknown>(undefined);
  useEffect(() => {
    setInventory(undefined);
    call('GET', `/console/api/fleet/sites/${encodeURIComponent(site.id)}/inventory`).then(
      setInventory,
      onError,
    );
  }, [site.id, onError]);
  return (
    <div id="site-detail">
      <dl>
        <dt>Site id</dt>
        <dd>
          <code>{site.id}</code>
        </dd>
        <dt>Attention</dt>
        <dd>{site.attention.length === 0 ? 'none' : site.attention.join(', ')}</dd>
        <dt>Open attention events</dt>
        <dd>{site.attentionEvents.length}</dd>
      </dl>
      <h3>Inventory</h3>
      {inventory === undefined ? (
        <p>Loading…</p>
      ) : inventory === null ? (
        <p>No inventory reported yet.</p>
      ) : (
        <pre id="site-inventory" tabIndex={0}>
          {JSON.stringify(inventory, null, 2)}
        </pre>
      )}
    </div>
  );
}
