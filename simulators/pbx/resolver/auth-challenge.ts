/** One challenge of a `WWW-Authenticate` header (RFC 9110 section 11.6.1). */
export interface AuthChallenge {
  /** The scheme as sent, e.g. `Digest`; compare case-insensitively. */
  scheme: string;
  /** Auth parameters by lower-case name, unquoted and unescaped. */
  params: Record<string, string>;
}

/** Bound on parsed challenges per response, so a hostile header cannot make work without end. */
const MAX_CHALLENGES = 16;

const TOKEN = /[!#$%&'*+\-.^_`|~0-9A-Za-z]+/y;

/**
 * Parses `WWW-Authenticate` values into challenges. One header line may hold several challenges
 * separated by commas (`Digest realm="a", nonce="b", Basic realm="c"`), and several lines may
 * each hold one. A token68 (`Bearer abc=`) is kept as parameter `token68`. Malformed remainders
 * are skipped, never thrown.
 */
export function parseChallenges(headerValues: readonly string[]): AuthChallenge[] {
  const challenges: AuthChallenge[] = [];
  for (const header of headerValues) {
    let pos = 0;
    const skipSpace = () => {
      while (pos < header.length && /[ \t,]/.test(header[pos] as string)) pos++;
    };
    const token = (): string | null => {
      TOKEN.lastIndex = pos;
      const m = TOKEN.exec(header);
      if (!m) return null;
      pos += m[0].length;
      return m[0];
    };
    const quoted = (): string => {
      let out = '';
      pos++;
      while (pos < header.length && header[pos] !== '"') {
        if (header[pos] === '\\' && pos + 1 < header.length) pos++;
        out += header[pos];
        pos++;
      }
      pos++;
      return out;
    };
    let current: AuthChallenge | undefined;
    while (pos < header.length && challenges.length <= MAX_CHALLENGES) {
      skipSpace();
      const start = pos;
      const name = token();
      if (name === null) {
        pos++;
        continue;
      }
      let look = pos;
      while (header[look] === ' ' || header[look] === '\t') look++;
      if (header[look] === '=' && current) {
        pos = look + 1;
        while (header[pos] === ' ' || header[pos] === '\t') pos++;
        const value = header[pos] === '"' ? quoted() : (token() ?? '');
        current.params[name.toLowerCase()] = value;
        continue;
      }
      if (header[pos] === '=' && !current) {
        pos = start + name.length + 1;
        continue;
      }
      current = { scheme: name, params: {} };
      challenges.push(current);
      while (header[pos] === ' ' || header[pos] === '\t') pos++;
      const t68 = /^[A-Za-z0-9\-._~+/]+=*(?=\s*(,|$))/.exec(header.slice(pos));
      if (t68 && !/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+\s*=[^=]/.test(header.slice(pos))) {
        current.params['token68'] = t68[0];
        pos += t68[0].length;
      }
    }
  }
  return challenges.slice(0, MAX_CHALLENGES);
}
