// A labelled drop-down that narrows a list; the empty value always means "no filter".

export type FilterOption = string | { value: string; label: string };

export function FilterSelect({
  label,
  value,
  onChange,
  anyLabel,
  options,
  testId,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** What the empty choice reads as ("Any", "All agents"). */
  anyLabel: string;
  /** Plain strings are their own label. */
  options: readonly FilterOption[];
  testId?: string;
}) {
  return (
    <label className="field field-inline">
      <span className="field-label">{label}</span>
      <select value={value} onChange={(event) => onChange(event.target.value)} data-testid={testId}>
        <option value="">{anyLabel}</option>
        {options.map((o) => {
          const { value: v, label: text } = typeof o === 'string' ? { value: o, label: o } : o;
          return (
            <option key={v} value={v}>
              {text}
            </option>
          );
        })}
      </select>
    </label>
  );
}
