import { useTranslation } from 'react-i18next';

import { Switcher } from '@/app/layout/switcher';
import { GlobeIcon } from '@/components/ui/icons';
import { LANGUAGES, type LanguageCode } from '@/config/languages';
import { chooseLanguage } from '@/lib/i18n/i18n';

const options = LANGUAGES.map(({ code, name }) => ({ value: code, name, lang: code }));

/**
 * The viewer's language, on every page: their choice is kept in the `lang` cookie and the page
 * re-renders in it at once (issue 36). Each language is named in itself.
 */
export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  const current = i18n.resolvedLanguage ?? i18n.language;
  const [primary = current, region] = current.split('-');
  return (
    <Switcher
      label={t('nav.language')}
      icon={<GlobeIcon size={18} className="switcher__icon" />}
      code={
        <>
          {primary.toUpperCase()}
          {region ? <span className="switcher__region">-{region.toUpperCase()}</span> : null}
        </>
      }
      value={current}
      options={options}
      onChange={(code) => void chooseLanguage(code as LanguageCode)}
    />
  );
}
