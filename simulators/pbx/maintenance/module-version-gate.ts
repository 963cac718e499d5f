/** The last module version without interface A (MAINT-MODULE-VERSION-GATE). */
export const LAST_VERSION_WITHOUT_API = '26.7.28';

/**
 * Compares dotted versions numerically part by part (`26.10.1` > `26.9.9`); a missing part counts
 * as 0 and a part is read by its leading digits (`28-beta` → 28, `x` → 0), so any string compares.
 * Returns a negative number, 0 or a positive number.
 */
export function compareVersions(a: string, b: string): number {
  const left = a.split('.');
  const right = b.split('.');
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const difference = versionPart(left[i]) - versionPart(right[i]);
    if (difference !== 0) return difference;
  }
  return 0;
}

function versionPart(part: string | undefined): number {
  const digits = /^\d+/.exec(part ?? '')?.[0];
  return digits === undefined ? 0 : Number(digits);
}

let lastAsked = { version: LAST_VERSION_WITHOUT_API, open: false };

/**
 * Whether a module of this version contains interface A: only versions after 26.7.28 do
 * (MAINT-MODULE-VERSION-GATE). Without it, everything under the base path is answered as the web
 * server answers an unknown path.
 */
export function hasMaintenanceApi(moduleVersion: string): boolean {
  // Asked on every request of interface A; the version rarely changes, so the last answer is kept.
  if (moduleVersion !== lastAsked.version) {
    lastAsked = {
      version: moduleVersion,
      open: compareVersions(moduleVersion, LAST_VERSION_WITHOUT_API) > 0,
    };
  }
  return lastAsked.open;
}
