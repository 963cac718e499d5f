import { useEffect, useState } from 'preact/hooks';
import { call } from './api.ts';
import { type Column, DataTable } from './data-table.tsx';
import type { ConsoleConfig } from './main.tsx';

type Recording = NonNullable<ConsoleConfig['recording']>;

const SAMPLE_COLUMNS: Column<Recording['samples'][number]>[] = [
  { header: 'Sample', cell: (s) => s.index },
  { header: 'Recorded at', cell: (s) => s.at },
  { header: 'Offset', cell: (s) => `${(s.offsetMs / 1000).toFixed(1)} s` },
  { header: 'Recorded answers', cell: (s) => s.answers },
];

/**
 * A replayed recording: its samples and their timing; the one being served now is marked. Each
 * change notice of the PBX (`revision`: a clock advance among them) reads which sample that is again.
 */
export function RecordingView({
  recording,
  revision,
  onError,
}: {
  recording: Recording;
  revision: number;
  onError: (e: unknown) => void;
}) {
  const [current, setCurrent] = useState(recording.current);
  useEffect(() => {
    if (revision === 0) return;
    call<ConsoleConfig>('GET', '/console/api/config').then(
      (config) => setCurrent(config.recording?.current ?? null),
      onError,
    );
  }, [revision]);
  return (
    <section class="card wide" aria-labelledby="recording-h">
      <h2 id="recording-h">Recording {recording.file}</h2>
      <p>
        Timing: <strong>{recording.timing}</strong>; {recording.samples.length} samples.
      </p>
      <DataTable
        id="recording-samples"
        columns={SAMPLE_COLUMNS}
        rows={recording.samples}
        rowKey={(s) => s.index}
        current={(s) => current === s.index}
      />
    </section>
  );
}
