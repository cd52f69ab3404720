import { useId, type ReactNode } from 'react';

import './switcher.css';

type SwitcherProps = {
  label: string;
  /** What phones show in the pill: the choice's code. */
  code: ReactNode;
  icon?: ReactNode;
  value: string;
  options: ReadonlyArray<{ value: string; name: string; lang?: string }>;
  onChange: (value: string) => void;
};

/**
 * A choice in the navbar (language, currency): a labelled select; on phones a pill with the
 * code, the select lying over it unseen and opening on a tap.
 */
export function Switcher({ label, code, icon, value, options, onChange }: SwitcherProps) {
  const id = useId();
  return (
    <div className="switcher">
      {icon}
      <span className="switcher__code" aria-hidden="true">
        {code}
      </span>
      <label htmlFor={id} className="switcher__label">
        {label}
      </label>
      <select
        id={id}
        className="switcher__select"
        value={value}
        onChange={(event) => onChange(event.target.value)}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value} lang={option.lang}>
            {option.name}
          </option>
        ))}
      </select>
    </div>
  );
}
