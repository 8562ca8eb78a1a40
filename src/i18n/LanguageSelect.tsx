/**
 * The language switcher (issue 37): the public site's header, the portal's user menu and the profile. A native
 * <select> on purpose: it is the smallest accessible control for a short list (keyboard, screen readers, a phone's
 * own picker), it weighs nothing on the public site, and each option is written in its own language (lang=).
 * `onChosen` runs after the switch, e.g. to store the choice on the signed-in person's account.
 */
import type { LanguageCode } from '../../contract/languages';
import { getLocale, t } from './index';
import { offeredLanguages, switchLanguage } from './language';

export function LanguageSelect({
  onChosen,
  className = 'language-select',
  id,
}: {
  onChosen?: (code: LanguageCode) => void;
  className?: string;
  id?: string;
}) {
  const languages = offeredLanguages();
  if (languages.length < 2) return null;
  return (
    <select
      id={id}
      className={className}
      aria-label={id ? undefined : t('app.language')}
      value={getLocale()}
      data-testid="language-select"
      onChange={(e) => {
        const code = e.target.value as LanguageCode;
        void switchLanguage(code, { remember: true }).then(() => onChosen?.(code));
      }}
    >
      {languages.map((l) => (
        <option key={l.code} value={l.code} lang={l.code}>
          {l.name}
        </option>
      ))}
    </select>
  );
}
