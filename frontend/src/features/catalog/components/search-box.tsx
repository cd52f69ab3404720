import { useId } from 'react';

import { IconButton } from '@/components/ui/icon-button';
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
        <IconButton
          className="search-box__clear"
          label="Clear search"
          size="sm"
          onClick={() => onChange('')}
        >
          <CloseIcon size={18} />
        </IconButton>
      ) : null}
    </div>
  );
}
