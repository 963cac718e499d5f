import { maskProvider } from '../state/provider-config.ts';
import type { PbxState, PbxUser } from '../state/types.ts';

/** A user as the control plane shows it: no password hash, not even a hash leaves the simulator. */
export type PublicPbxUser = Omit<PbxUser, 'passwordSha512'>;

/**
 * The state as `GET /state` shows it: a copy whose users carry only `login` and `admin` and whose
 * resolver providers show secret field values as `***`.
 */
export type PublicPbxState = Omit<PbxState, 'users'> & { users: PublicPbxUser[] };

/**
 * A copy of the state without secrets, for `getState()` of both control implementations (so the
 * TypeScript API and the HTTP API answer alike). Tests that need the hashes read `store.read()`.
 */
export function publicState(state: Readonly<PbxState>): PublicPbxState {
  const copy = structuredClone(state) as PbxState;
  return {
    ...copy,
    users: copy.users.map(({ login, admin }) => ({ login, admin })),
    resolver: { ...copy.resolver, providers: copy.resolver.providers.map((p) => maskProvider(p)) },
  };
}
