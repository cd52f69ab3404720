import { useId } from 'react';

import { CloseIcon, SearchIcon } from '@/components/ui/icons';

import './search-box.css';

type SearchBoxProps = {
  value: string;
  onChange: (value: string) => void;
};

export function SearchBox({ value, onChange }: SearchBoxProps) {
  const id = useId();
  return (
    <div className="search-box" role="search">
      <label htmlFor={id} className="visually-hidden">
        Search products
      </label>
      <SearchIcon className="search-box__icon" />
      <input
        id={id}
        className="search-box__input"
        type="search"
        placeholder="Search products..."
        autoComplete="off"
        enterKeyHint="search"
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
      {value ? (
        <button
          type="button"
          className="search-box__clear"
          aria-label="Clear search"
          onClick={() => onChange('')}
        >
          <CloseIcon size={18} />
        </button>
      ) : null}
    </div>
  );
}
