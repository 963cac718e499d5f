import { readdirSync, readFileSync } from 'node:fs';

/**
 * Host processes whose command line holds `marker`: what a sealed plug-in run left behind, as the
 * sealed-run scenarios and the sandbox tests look for it.
 */
export function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(marker)) found.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}
