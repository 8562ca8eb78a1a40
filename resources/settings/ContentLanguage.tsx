import { useId, useState } from 'react';
import { Form, Radio, Typography } from 'antd';
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGES, type LanguageCode } from '../../contract/languages';
import { t } from '../../src/i18n';

const nameOf = (code: string) => LANGUAGES.find((l) => l.code === code)?.name ?? code;

/**
 * The languages the ISP's content may be written in (issue 37), as the Languages tab has them now (unsaved changes
 * included): the default one (the content's own fields) and the other offered ones (content_translations.<code>).
 */
export function useContentLanguages(): { base: LanguageCode; baseName: string; others: LanguageCode[] } {
  const form = Form.useFormInstance();
  const offered = Form.useWatch(['languages', 'offered'], { form, preserve: true }) as unknown;
  const chosen = Form.useWatch(['languages', 'default'], { form, preserve: true }) as unknown;
  const base = isLanguage(chosen) ? chosen : DEFAULT_LANGUAGE;
  const others = LANGUAGES.map((l) => l.code).filter(
    (code) => code !== base && Array.isArray(offered) && offered.includes(code),
  );
  return { base, baseName: nameOf(base), others };
}

/**
 * "Editing: English (default) / Español / …": which language's version of the content a tab shows. Each
 * language's fields stay in the form (hidden when another is picked), so one Save sends every language.
 */
export function useEditingLanguage() {
  const languages = useContentLanguages();
  const [picked, setPicked] = useState<string>(languages.base);
  const editing = languages.others.includes(picked as LanguageCode) ? (picked as LanguageCode) : languages.base;
  return { ...languages, editing, setEditing: setPicked };
}

export function EditingLanguagePicker({ base, others, editing, setEditing }: ReturnType<typeof useEditingLanguage>) {
  const id = useId();
  if (!others.length) return null;
  return (
    <div style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 8, marginBottom: 16 }}>
      <Typography.Text strong id={id}>
        {t('settings.content.editing')}
      </Typography.Text>
      <Radio.Group
        aria-labelledby={id}
        optionType="button"
        value={editing}
        onChange={(e) => setEditing(e.target.value as string)}
        style={{ display: 'flex', flexWrap: 'wrap', rowGap: 4 }}
        options={[base, ...others].map((code) => ({
          value: code,
          label: (
            <span lang={code}>
              {code === base ? t('settings.content.defaultLanguage', { language: nameOf(code) }) : nameOf(code)}
            </span>
          ),
        }))}
      />
    </div>
  );
}
