import { useId } from 'react';
import { Form, Input } from 'antd';
import { LANGUAGES } from '../../contract/languages';
import { t } from '../../src/i18n';
import { defaultLanguage, offeredLanguages } from '../../src/i18n/language';

type Texts = Record<string, string>;

/** The offered languages other than the ISP's default, as the page's public settings have them (all until known). */
function otherLanguages() {
  const base = defaultLanguage();
  return offeredLanguages().filter((l) => l.code !== base);
}

/**
 * One box per offered language (issue 37), the default description as each one's placeholder: left empty, that
 * language's readers get the default one. The value is the whole map, so a language no longer offered keeps its text.
 */
function TranslationBoxes({ value, onChange }: { value?: Texts; onChange?: (value: Texts) => void }) {
  const id = useId();
  const description = Form.useWatch('description') as string | undefined;
  return (
    <fieldset
      style={{ display: 'flex', flexDirection: 'column', gap: 8, border: 0, padding: 0, margin: 0, minWidth: 0 }}
    >
      <legend style={{ fontSize: 'inherit', marginBottom: 8, border: 0 }}>
        {t('plans.fields.descriptionTranslations')}
      </legend>
      {otherLanguages().map((l) => (
        <div key={l.code}>
          <label htmlFor={`${id}-${l.code}`}>{t('plans.fields.descriptionIn', { language: l.name })}</label>
          <Input.TextArea
            id={`${id}-${l.code}`}
            lang={l.code}
            dir={l.dir}
            rows={2}
            maxLength={2000}
            placeholder={description || undefined}
            value={value?.[l.code] ?? ''}
            onChange={(e) => onChange?.({ ...value, [l.code]: e.target.value })}
          />
        </div>
      ))}
    </fieldset>
  );
}

/** The plan form's "Description in other languages" (none when the ISP offers only its default language). */
export function DescriptionTranslationsField() {
  if (!otherLanguages().length) return null;
  return (
    <Form.Item name="description_translations" extra={t('plans.descriptionFallback')}>
      <TranslationBoxes />
    </Form.Item>
  );
}

/** The show page's line per language: "Español: …". */
export function renderTranslations(value: unknown) {
  const texts = Object.entries((value as Texts | undefined) ?? {}).filter(([, text]) => text);
  if (!texts.length) return null;
  return texts.map(([code, text]) => (
    <div key={code} lang={code}>
      <strong>{LANGUAGES.find((l) => l.code === code)?.name ?? code}:</strong> {text}
    </div>
  ));
}
