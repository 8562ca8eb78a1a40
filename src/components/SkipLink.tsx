import { t } from '../i18n';

/**
 * "Skip to content" (WCAG 2.4.1 Bypass Blocks): the first stop of the Tab key, visible only while focused. It
 * moves focus to the element with id "main" rather than changing the URL's hash, which the router would treat
 * as a navigation.
 */
export function SkipLink() {
  return (
    // biome-ignore lint/a11y/useValidAnchor: a real link to #main; the click only moves focus itself instead of letting the router see a hash change
    <a
      href="#main"
      className="skip-link"
      onClick={(e) => {
        const main = document.getElementById('main');
        if (!main) return;
        e.preventDefault();
        if (!main.hasAttribute('tabindex')) main.setAttribute('tabindex', '-1');
        main.focus();
        main.scrollIntoView?.({ block: 'start' });
      }}
    >
      {t('app.skipToContent')}
    </a>
  );
}
