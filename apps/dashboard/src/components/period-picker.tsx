import { useEffect, useState } from 'react';
import { isCustomPeriod, joinCustom, presetLabel, splitCustom } from '../lib/periods';

const CUSTOM = '__custom';

interface PeriodPickerProps {
  id: string;
  label: string;
  presets: readonly string[];
  /** The period in force (state or the API's resolved one). */
  value: string | undefined;
  onChange: (period: string | undefined) => void;
  /** Offer "default" (the API's own choice) as the first option, e.g. for a comparison period. */
  emptyLabel?: string;
  invalid?: boolean;
  describedBy?: string;
}

/** A preset, or a custom range of whole days (two date inputs, applied when both make a range). */
export function PeriodPicker({ id, label, presets, value, onChange, emptyLabel, invalid, describedBy }: PeriodPickerProps) {
  const custom = isCustomPeriod(value);
  const [showCustom, setShowCustom] = useState(custom);
  const [range, setRange] = useState(splitCustom(value));
  const [problem, setProblem] = useState<string | undefined>();
  useEffect(() => {
    setRange(splitCustom(value));
    if (isCustomPeriod(value)) setShowCustom(true);
  }, [value]);

  const selectValue = showCustom ? CUSTOM : value && presets.includes(value) ? value : value ? value : '';
  const applyRange = (next: { start: string; end: string }) => {
    setRange(next);
    const joined = joinCustom(next.start, next.end);
    if ('period' in joined) {
      setProblem(undefined);
      onChange(joined.period);
    } else if (next.start && next.end) setProblem(joined.problem);
  };

  return (
    <div className="control">
      <label htmlFor={id}>{label}</label>
      <div className="row">
        <select
          id={id}
          value={selectValue}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          onChange={(e) => {
            if (e.target.value === CUSTOM) {
              setShowCustom(true);
              return;
            }
            setShowCustom(false);
            onChange(e.target.value || undefined);
          }}
        >
          {emptyLabel !== undefined ? <option value="">{emptyLabel}</option> : null}
          {value && !custom && !presets.includes(value) ? <option value={value}>{value}</option> : null}
          {presets.map((p) => (
            <option key={p} value={p}>
              {presetLabel(p)}
            </option>
          ))}
          <option value={CUSTOM}>Custom range…</option>
        </select>
        {showCustom ? (
          <>
            <label className="visually-hidden" htmlFor={`${id}-start`}>
              {label}: first day
            </label>
            <input id={`${id}-start`} type="date" value={range.start} onChange={(e) => applyRange({ ...range, start: e.target.value })} aria-invalid={invalid || !!problem || undefined} />
            <span aria-hidden="true">to</span>
            <label className="visually-hidden" htmlFor={`${id}-end`}>
              {label}: last day
            </label>
            <input id={`${id}-end`} type="date" value={range.end} onChange={(e) => applyRange({ ...range, end: e.target.value })} aria-invalid={invalid || !!problem || undefined} />
          </>
        ) : null}
      </div>
      {problem ? <p className="field-error">{problem}</p> : null}
    </div>
  );
}
