import { createContext, useContext, useId, useState, type ReactNode } from 'react';
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
const Picked = createContext<{ picked: string | null; setPicked: (code: string) => void } | null>(null);

/**
 * One picked language for the screen's tabs (Site content and Policies show the same one), which the screen also sets
 * when a refused field is in a language that is not shown (pickLanguageOf).
 */
export function EditingLanguageProvider({ children }: { children: ReactNode }) {
  const [picked, setPicked] = useState<string | null>(null);
  return <Picked.Provider value={{ picked, setPicked }}>{children}</Picked.Provider>;
}

/** The language of a form field's name, when it is a translation's (['content_translations', 'es', …] → es). */
export function translationLanguageOf(name: ReadonlyArray<string | number>): string | null {
  return name[0] === 'content_translations' && typeof name[1] === 'string' ? name[1] : null;
}

export function useSetEditingLanguage(): (code: string) => void {
  const shared = useContext(Picked);
  return (code) => shared?.setPicked(code);
}

export function useEditingLanguage() {
  const languages = useContentLanguages();
  const [own, setOwn] = useState<string | null>(null);
  const shared = useContext(Picked);
  const picked = (shared ? shared.picked : own) ?? languages.base;
  const setPicked = shared ? shared.setPicked : setOwn;
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
