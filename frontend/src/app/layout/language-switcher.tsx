import { useTranslation } from 'react-i18next';

import { Switcher } from '@/app/layout/switcher';
import { GlobeIcon } from '@/components/ui/icons';
import { useUser } from '@/features/auth/hooks/use-user';
import { LANGUAGES, type LanguageCode } from '@/config/languages';
import { chooseLanguage } from '@/lib/i18n/i18n';

const options = LANGUAGES.map(({ code, name }) => ({ value: code, name, lang: code }));

/** A logged-in shopper's choice is kept on the account too: its mails follow it. */
function keepOnAccount(language: LanguageCode): void {
  void import('@/features/profile/api/get-profile')
    .then(({ saveLanguage }) => saveLanguage(language))
    .catch((error: unknown) => console.error('Could not keep the language on the account:', error));
}

/**
 * The viewer's language, on every page: their choice is kept in the `lang` cookie (and on the
 * account when logged in) and the page re-renders in it at once (issue 36). Each language is
 * named in itself.
 */
export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  const { user } = useUser();
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
      onChange={(code) => {
        void chooseLanguage(code as LanguageCode);
        if (user) keepOnAccount(code as LanguageCode);
      }}
    />
  );
}
