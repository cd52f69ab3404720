import { useId } from 'react';
import { useTranslation } from 'react-i18next';

import { GlobeIcon } from '@/components/ui/icons';
import { LANGUAGES, type LanguageCode } from '@/config/languages';
import { chooseLanguage } from '@/lib/i18n/i18n';

import './language-switcher.css';

/**
 * The viewer's language, on every page: their choice is kept in the `lang` cookie and the page
 * re-renders in it at once (issue 36). Each language is named in itself.
 */
export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  const id = useId();
  const current = i18n.resolvedLanguage ?? i18n.language;
  return (
    <div className="language-switcher">
      <GlobeIcon size={18} className="language-switcher__icon" />
      {/* phones: the code stands for the select, which lies over it unseen and opens on a tap */}
      <span className="language-switcher__code" aria-hidden="true">
        {current.toUpperCase()}
      </span>
      <label htmlFor={id} className="language-switcher__label">
        {t('nav.language')}
      </label>
      <select
        id={id}
        className="language-switcher__select"
        value={current}
        onChange={(event) => void chooseLanguage(event.target.value as LanguageCode)}
      >
        {LANGUAGES.map(({ code, name }) => (
          <option key={code} value={code} lang={code}>
            {name}
          </option>
        ))}
      </select>
    </div>
  );
}
