import { useEffect, useState } from 'preact/hooks';
import { call } from './api.ts';
import type { ConsoleConfig } from './main.tsx';

type Recording = NonNullable<ConsoleConfig['recording']>;

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
      <table id="recording-samples">
        <thead>
          <tr>
            <th scope="col">Sample</th>
            <th scope="col">Recorded at</th>
            <th scope="col">Offset</th>
            <th scope="col">Recorded answers</th>
          </tr>
        </thead>
        <tbody>
          {recording.samples.map((s) => (
            <tr key={s.index} aria-current={current === s.index ? 'true' : undefined}>
              <td>{s.index}</td>
              <td>{s.at}</td>
              <td>{(s.offsetMs / 1000).toFixed(1)} s</td>
              <td>{s.answers}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
