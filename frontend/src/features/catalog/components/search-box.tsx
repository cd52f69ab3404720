import { useTranslation } from 'react-i18next';
import { useId } from 'react';

import { IconButton } from '@/components/ui/icon-button';
import { CloseIcon, SearchIcon } from '@/components/ui/icons';

import './search-box.css';

type SearchBoxProps = {
  value: string;
  onChange: (value: string) => void;
};

export function SearchBox({ value, onChange }: SearchBoxProps) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="search-box" role="search">
      <label htmlFor={id} className="visually-hidden">
        {t('catalog.search')}
      </label>
      <SearchIcon className="search-box__icon" />
      <input
        id={id}
        className="search-box__input"
        type="search"
        placeholder={t('catalog.searchPlaceholder')}
        autoComplete="off"
        enterKeyHint="search"
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
      {value ? (
        <IconButton
          className="search-box__clear"
          label={t('catalog.clearSearch')}
          size="sm"
          onClick={() => onChange('')}
        >
          <CloseIcon size={18} />
        </IconButton>
      ) : null}
    </div>
  );
}
