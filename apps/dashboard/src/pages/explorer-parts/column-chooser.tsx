import type { DiscoveryColumn } from '../../api/types';

/** Which columns the API returns, grouped as discovery groups them; at least one stays chosen (the API refuses none). */
export function ColumnChooser({ columns, chosen, onChange, invalid }: { columns: DiscoveryColumn[]; chosen: string[]; onChange: (next: string[]) => void; invalid?: boolean }) {
  const groups = [...new Set(columns.map((c) => c.group))];
  const toggle = (key: string, on: boolean) => {
    // Keep discovery's order for new columns, the chosen order for the rest.
    const next = on ? [...chosen, key] : chosen.filter((k) => k !== key);
    if (next.length > 0) onChange(next);
  };
  return (
    <details className="chooser">
      <summary aria-invalid={invalid}>Columns ({chosen.length} of {columns.length})</summary>
      <div className="chooser-list">
        {groups.map((group) => (
          <fieldset key={group}>
            <legend>{group}</legend>
            {columns
              .filter((c) => c.group === group)
              .map((c) => (
                <label key={c.key} className="block">
                  <input type="checkbox" checked={chosen.includes(c.key)} disabled={chosen.length === 1 && chosen.includes(c.key)} onChange={(e) => toggle(c.key, e.target.checked)} /> {c.title}
                </label>
              ))}
          </fieldset>
        ))}
      </div>
    </details>
  );
}
