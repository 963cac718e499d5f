import type { SearchLogEntry, SearchLogLevel, SearchStep } from '../state/resolver-state.ts';
import type { SecretMasker } from './secret-mask.ts';

type LogData = Record<string, string | number | boolean | null>;

/**
 * Collects the search-log lines of one resolution (RESOLVER-DIAG-LOG, RESOLVER-DIAG-LOG-EXPERT).
 * Every message and data string passes the masker of the provider that wrote it, so no line
 * carries a secret. `seq` is local to the resolution; the resolver renumbers on storing.
 */
export class SearchLogger {
  readonly entries: SearchLogEntry[] = [];
  private provider: string | null = null;
  private masker: SecretMasker | null = null;

  constructor(
    readonly resolution: number,
    private readonly now: () => number,
  ) {}

  /** Lines after this call belong to `provider` (null: the resolution as a whole). */
  forProvider(provider: string | null, masker: SecretMasker | null): void {
    this.provider = provider;
    this.masker = masker;
  }

  info(step: SearchStep, message: string, data?: LogData): void {
    this.add('info', step, message, false, data);
  }

  warn(step: SearchStep, message: string, data?: LogData): void {
    this.add('warning', step, message, false, data);
  }

  error(step: SearchStep, message: string, data?: LogData): void {
    this.add('error', step, message, false, data);
  }

  /** An expert-mode line (redirects, the encoded URI). */
  expert(step: SearchStep, message: string, data?: LogData): void {
    this.add('info', step, message, true, data);
  }

  private add(
    level: SearchLogLevel,
    step: SearchStep,
    message: string,
    expert: boolean,
    data?: LogData,
  ): void {
    const masker = this.masker;
    const entry: SearchLogEntry = {
      seq: this.entries.length + 1,
      at: this.now(),
      resolution: this.resolution,
      provider: this.provider,
      level,
      step,
      message: masker ? masker.mask(message) : message,
      expert,
    };
    if (data) {
      const masked: LogData = {};
      for (const [key, value] of Object.entries(data))
        masked[key] = typeof value === 'string' && masker ? masker.mask(value) : value;
      entry.data = masked;
    }
    this.entries.push(entry);
  }
}
