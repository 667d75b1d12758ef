import { useEffect, useState, type FormEvent } from 'react';
import type { ApiError } from '../../api/api-error';
import type { DiscoveryFilter } from '../../api/types';
import { FieldError } from '../../components/field-error';
import { errorTarget } from '../../lib/error-fields';
import { RANGE_OPERATORS, type FilterState } from '../../lib/explorer-state';

const OPERATOR_LABELS: Record<string, string> = {
  contains: 'contains',
  not_contains: 'does not contain',
  equals: 'equals',
  not_equals: 'does not equal',
  regex: 'matches regex',
  not_regex: 'does not match regex',
  empty: 'is empty',
  not_empty: 'is not empty',
  eq: '=',
  ne: '≠',
  gt: '>',
  gte: '≥',
  lt: '<',
  lte: '≤',
  between: 'between',
};

/** Unknown operators (a newer API) still show, by their key. */
export const operatorLabel = (op: string) => OPERATOR_LABELS[op] ?? op;

interface FilterEditorProps {
  definitions: DiscoveryFilter[];
  applied: FilterState[];
  onApply: (filters: FilterState[]) => void;
  error: ApiError | null;
  controls: readonly string[];
}

/** Filters exactly as discovery lists them: its fields, its operators; valueless operators take no input; options as a select. Applied together. */
export function FilterEditor({ definitions, applied, onApply, error, controls }: FilterEditorProps) {
  const [draft, setDraft] = useState<FilterState[]>(applied);
  useEffect(() => setDraft(applied), [applied]);
  const update = (index: number, change: Partial<FilterState>) => setDraft((rows) => rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(draft);
  };
  const invalid = (control: string) => errorTarget(error?.field, controls) === control || undefined;

  return (
    <form onSubmit={submit} aria-label="Filters">
      <fieldset>
        <legend>Filters</legend>
        <FieldError error={error} control="filters" controls={controls} />
        {draft.length === 0 ? <p className="muted small">No filters: every row of the window.</p> : null}
        {draft.map((filter, index) => {
          const definition = definitions.find((d) => d.field === filter.field);
          const op = filter.op ?? definition?.operators[0] ?? '';
          const valueless = definition?.valuelessOperators.includes(op) ?? false;
          const range = RANGE_OPERATORS.includes(op);
          const base = `filters[${index}]`;
          return (
            <div className="filter-row" key={index}>
              <div className="control">
                <label htmlFor={`filter-${index}-field`}>Field</label>
                <select
                  id={`filter-${index}-field`}
                  value={filter.field}
                  aria-invalid={invalid(`${base}.field`) ?? invalid(base)}
                  onChange={(e) => {
                    const next = definitions.find((d) => d.field === e.target.value);
                    update(index, { field: e.target.value, op: next?.operators[0], val: next?.options?.[0]?.value ?? '', val2: undefined });
                  }}
                >
                  {definition ? null : <option value={filter.field}>{filter.field}</option>}
                  {definitions.map((d) => (
                    <option key={d.field} value={d.field}>
                      {d.title}
                    </option>
                  ))}
                </select>
                <FieldError error={error} control={`${base}.field`} controls={controls} />
              </div>
              <div className="control">
                <label htmlFor={`filter-${index}-op`}>Operator</label>
                <select id={`filter-${index}-op`} value={op} aria-invalid={invalid(`${base}.op`)} onChange={(e) => update(index, { op: e.target.value })}>
                  {(definition?.operators ?? [op]).map((o) => (
                    <option key={o} value={o}>
                      {operatorLabel(o)}
                    </option>
                  ))}
                </select>
                <FieldError error={error} control={`${base}.op`} controls={controls} />
              </div>
              {valueless ? null : (
                <div className="control">
                  <label htmlFor={`filter-${index}-val`}>{range ? 'From' : 'Value'}</label>
                  {definition?.options ? (
                    <select id={`filter-${index}-val`} value={filter.val ?? ''} aria-invalid={invalid(`${base}.val`)} onChange={(e) => update(index, { val: e.target.value })}>
                      {definition.options.map((o) => (
                        <option key={o.value} value={o.value}>
                          {o.label}
                        </option>
                      ))}
                    </select>
                  ) : (
                    <input
                      id={`filter-${index}-val`}
                      value={filter.val ?? ''}
                      inputMode={definition?.type === 'number' ? 'decimal' : undefined}
                      aria-invalid={invalid(`${base}.val`)}
                      onChange={(e) => update(index, { val: e.target.value })}
                    />
                  )}
                  <FieldError error={error} control={`${base}.val`} controls={controls} />
                </div>
              )}
              {range && !valueless ? (
                <div className="control">
                  <label htmlFor={`filter-${index}-val2`}>To</label>
                  <input
                    id={`filter-${index}-val2`}
                    value={filter.val2 ?? ''}
                    inputMode={definition?.type === 'number' ? 'decimal' : undefined}
                    aria-invalid={invalid(`${base}.val2`)}
                    onChange={(e) => update(index, { val2: e.target.value })}
                  />
                  <FieldError error={error} control={`${base}.val2`} controls={controls} />
                </div>
              ) : null}
              <div className="control">
                <span aria-hidden="true">&nbsp;</span>
                <button type="button" onClick={() => setDraft((rows) => rows.filter((_, i) => i !== index))} aria-label={`Remove filter ${index + 1}`}>
                  Remove
                </button>
              </div>
              <FieldError error={error} control={base} controls={controls} />
            </div>
          );
        })}
        <div className="row">
          <button
            type="button"
            disabled={definitions.length === 0}
            onClick={() => {
              const first = definitions[0]!;
              setDraft((rows) => [...rows, { field: first.field, op: first.operators[0], val: first.options?.[0]?.value ?? '' }]);
            }}
          >
            Add filter
          </button>
          <button type="submit" className="primary">
            Apply filters
          </button>
        </div>
      </fieldset>
    </form>
  );
}
