import type { ComponentChildren } from 'preact';

/** One column: its header and what a row shows in it. */
export interface Column<T> {
  header: string;
  cell: (row: T) => ComponentChildren;
}

/**
 * The console's one table (the MCP tokens, the local checks, a record list, a recording's
 * samples): a header row of column scopes, one row per item keyed by `rowKey`, named by `id` or
 * `label` for assistive technology; `current` marks the row the simulator serves now.
 */
export function DataTable<T>(props: {
  id?: string;
  label?: string;
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T, index: number) => string | number;
  current?: (row: T) => boolean;
}) {
  return (
    <table id={props.id} aria-label={props.label}>
      <thead>
        <tr>
          {props.columns.map((column) => (
            <th scope="col" key={column.header}>
              {column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {props.rows.map((row, index) => (
          <tr key={props.rowKey(row, index)} aria-current={props.current?.(row) ? 'true' : undefined}>
            {props.columns.map((column) => (
              <td key={column.header}>{column.cell(row)}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
