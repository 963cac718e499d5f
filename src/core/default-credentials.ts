/**
 * The XML-RPC login the simulator's scenarios ship with: the test-vector user `123` / `Pass123`
 * (test-vectors.md; simulators/pbx/state/default-state.ts keeps only its SHA-512). `simulate`
 * prints these and puts them into the target description, because the state holds no clear text.
 */
export const DEFAULT_XMLRPC_CREDENTIALS = { login: '123', password: 'Pass123' } as const;
