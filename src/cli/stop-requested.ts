/**
 * Resolves when a long-running command (`simulate`, `endpoint`) should stop: when `signal` aborts,
 * or, without one (the real CLI), at the first SIGINT or SIGTERM. Listen before announcing
 * readiness, so a caller that signals at once is not missed.
 */
export function stopRequested(signal: AbortSignal | undefined): Promise<void> {
  if (signal) {
    if (signal.aborted) return Promise.resolve();
    return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  }
  return new Promise((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
