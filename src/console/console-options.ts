import type { Recording } from '../../simulators/pbx/index.ts';
import type { ConsoleOptions, ConsoleRecording } from './console-mount.ts';

/** A clock the recording view reads once the PBX has started (its virtual time since the replay began). */
export interface ReplayClock {
  startedAt: number;
  now(): number;
}

/** What the console needs of `simulate`'s fleet: the controller's URLs and the demo fixture. */
export interface FleetForConsole {
  controller: { urls: { control: string; api: string; mcp: string } };
  fixture: {
    partners: readonly { id: string; name: string }[];
    accounts: readonly { email: string; password: string | null; role: string; partnerId: string }[];
    tokens: readonly { secret: string; accountId: string; level: string }[];
  };
}

/**
 * What `simulate` tells the console (issue 32): the fleet beside the PBX (its URLs, the demo
 * accounts the page may act as, the demo MCP tokens) and a replayed recording's samples.
 */
export function consoleOptionsOf(
  fleet: FleetForConsole | null,
  controlToken: string | undefined,
  replayed:
    | { recording: Recording; file: string; timing: string; clock: { current?: ReplayClock } }
    | undefined,
): ConsoleOptions {
  const options: ConsoleOptions = { tokenRequired: controlToken !== undefined };
  if (fleet) {
    const partners = new Map(fleet.fixture.partners.map((p) => [p.id, p.name]));
    const { urls } = fleet.controller;
    options.fleet = {
      controlUrl: loopbackUrl(urls.control),
      apiUrl: loopbackUrl(urls.api),
      mcpUrl: `${loopbackUrl(urls.api)}${new URL(urls.mcp).pathname}`,
      ...(controlToken === undefined ? {} : { token: controlToken }),
      accounts: fleet.fixture.accounts.flatMap((a) =>
        a.password === null
          ? []
          : [
              {
                email: a.email,
                password: a.password,
                role: a.role,
                partner: partners.get(a.partnerId) ?? a.partnerId,
              },
            ],
      ),
      mcpTokens: fleet.fixture.tokens.map((t) => ({
        secret: t.secret,
        accountId: t.accountId,
        level: t.level,
      })),
    };
  }
  if (replayed) options.recording = recordingView(replayed);
  return options;
}

function recordingView(replayed: {
  recording: Recording;
  file: string;
  timing: string;
  clock: { current?: ReplayClock };
}): ConsoleRecording {
  const samples = replayed.recording.samples.map((sample, index) => ({
    index,
    at: sample.recordedAt,
    offsetMs: sample.atMs,
    answers: (sample.dataEndpoint?.http.length ?? 0) + Object.keys(sample.xmlrpc ?? {}).length,
  }));
  return {
    file: replayed.file,
    timing: replayed.timing,
    samples,
    current: () => {
      const clock = replayed.clock.current;
      if (!clock) return null;
      const elapsed = clock.now() - clock.startedAt;
      let at: number | null = null;
      for (const sample of samples) if (sample.offsetMs <= elapsed) at = sample.index;
      return at;
    },
  };
}

/** A listener's URL as a client on this machine reaches it (a wildcard bind becomes 127.0.0.1). */
function loopbackUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.hostname === '0.0.0.0' || parsed.hostname === '[::]') parsed.hostname = '127.0.0.1';
  return parsed.origin;
}
