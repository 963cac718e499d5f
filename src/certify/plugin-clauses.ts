/**
 * The `PLUGIN` clauses of the catalog (features/clauses.yaml, plugin-interface.md) and what
 * `certify-plugin` judges each on. Each is judged over every run of a certification and gets one
 * verdict; its `level` in the catalog says whether a broken rule fails the certification (`must`)
 * or is a warning (`should`).
 */
export const PLUGIN_CLAUSES = {
  /** Every run: exit code 0-3, not killed by a signal, not still running at the harness's limit. */
  'PLUGIN-EXIT-CODE': 'every run',
  /** Every run: no traceback or stack trace in stdout or stderr, whatever the exit code. */
  'PLUGIN-NO-CRASH': 'every run',
  /** Every run that reported: a non-empty first line before the perfdata. */
  'PLUGIN-FIRST-LINE': 'every run',
  /** The run on `healthy` (and its twins) ends with a state other than UNKNOWN. */
  'PLUGIN-KNOWN-WHEN-SERVED': 'the healthy run',
  /** Every run: stdout and stderr together at most 512 KiB. */
  'PLUGIN-OUTPUT-SIZE': 'every run',
  /** Two extra runs: `--help` and `--version` print text and exit 3. */
  'PLUGIN-HELP-VERSION': 'the --help and --version runs',
  /** An extra run whose answer is held back past the plug-in's own `{timeout}`. */
  'PLUGIN-OWN-TIMEOUT': 'the held-back run',
  /** Every run: perfdata items in the `'label'=value[UOM];warn;crit;min;max` grammar. */
  'PLUGIN-PERFDATA-GRAMMAR': 'every run',
  /** Every run: values are decimal numbers with `.` or `U`; min and max plain numbers. */
  'PLUGIN-PERFDATA-NUMBERS': 'every run',
  /** Every run: no value in scientific notation. */
  'PLUGIN-PERFDATA-NO-EXPONENT': 'every run',
  /** Every run: the UOM is one the interface allows. */
  'PLUGIN-PERFDATA-UOM': 'every run',
  /** Every run: sizes in `B`, not in multiples. */
  'PLUGIN-PERFDATA-UOM-BYTES': 'every run',
  /** Every run: warn and crit are ranges. */
  'PLUGIN-PERFDATA-RANGES': 'every run',
  /** An extra run of `healthy` under `LC_ALL=de_DE.UTF-8` against the same run under `LC_ALL=C`. */
  'PLUGIN-LOCALE-INDEPENDENT': 'the de_DE run',
  /** The `extension` run against its plain twin `healthy`. */
  'PLUGIN-IGNORES-UNKNOWN': 'the extension run',
  /** Every perfdata label held to the served figures it tracks, over all runs. */
  'PLUGIN-FIGURES-FOLLOW-SERVED': 'all runs',
  /** Every run's state against the PBX's own local checks of the watched services. */
  'PLUGIN-STATE-AGREES-WITH-PBX': 'every run, with `watches`',
  /** The runs without data: refused, closed without a byte, an `ERROR:` line, the sections it reads missing. */
  'PLUGIN-NOT-OK-WITHOUT-DATA': 'the runs without data',
  /** Every run that reported: a value outside its own printed warn or crit range comes with a state to match. */
  'PLUGIN-STATE-FOLLOWS-OWN-THRESHOLDS': 'every run',
  /** Every run with data: no printed value is the `-1` sentinel, or computed from an unknown the PBX served. */
  'PLUGIN-UNKNOWN-NOT-A-FIGURE': 'every run with data',
  /** Every label with a UOM that follows (or is declared as) a served figure: in the figure's unit, converted. */
  'PLUGIN-UOM-MATCHES-SERVED': 'all runs',
  /** Every declared label (`measures`) against its figure, converted into the label's UOM. */
  'PLUGIN-FIGURES-AS-DECLARED': 'every run, with `measures`',
  /** Every run's state equal to the PBX's own judgement of the services watched with `agree: exact`. */
  'PLUGIN-STATE-EQUALS-PBX': 'every run, with `agree: exact`',
} as const;

export type PluginClauseId = keyof typeof PLUGIN_CLAUSES;
