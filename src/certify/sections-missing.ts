/**
 * The `sections-missing` field scenario (PLUGIN-NOT-OK-WITHOUT-DATA): the PBX answers, but without
 * the sections a plug-in reads. Every section but the agent's banner (`<<<monitor_agent>>>`) is
 * left out, so whatever sections a plug-in reads (the PBX sections, `<<<local>>>`, the Linux
 * sections), none of them is there. An HTTP answer (`/json`, `/checkmk` over HTTP) is passed on
 * as it is.
 */
export function dropSections(answer: string): string {
  if (answer.startsWith('HTTP/')) return answer;
  const kept: string[] = [];
  let keep = false;
  for (const line of answer.split('\n')) {
    const header = /^<<<([^>:]*)/.exec(line);
    if (header) keep = header[1] === 'monitor_agent';
    if (keep) kept.push(line);
  }
  return kept.length === 0 ? '' : `${kept.join('\n')}\n`;
}

/** {@link dropSections} on the bytes of an answer. */
export function dropSectionsOfAnswer(answer: Buffer): Buffer {
  const text = answer.toString('utf8');
  return text.startsWith('HTTP/') ? answer : Buffer.from(dropSections(text), 'utf8');
}
