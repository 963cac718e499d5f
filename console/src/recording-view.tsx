import type { ConsoleConfig } from './main.tsx';

/** A replayed recording: its samples and their timing; the one being served now is marked. */
export function RecordingView({ recording }: { recording: NonNullable<ConsoleConfig['recording']> }) {
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
            <tr key={s.index} aria-current={recording.current === s.index ? 'true' : undefined}>
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
