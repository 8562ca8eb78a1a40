/**
 * The part of ICU MessageFormat the portal's texts use: `{name}` arguments, `{n, plural, =0 {…} one {# item}
 * other {# items}}` with the language's plural categories (Intl.PluralRules: Arabic's zero/one/two/few/many/other,
 * French's one for 0 and 1, Indonesian's other only) and `{kind, select, a {…} other {…}}`.
 *
 * Hand-written on purpose (the design card asks for a reason): the maintained ICU formatters (intl-messageformat,
 * i18next-icu over it, messageformat 4) add 12–30 KB of compressed JavaScript to every page, and the customer's
 * home is within a few hundred bytes of its 300 KB budget (npm run bench:web). The plural rules themselves are
 * the browser's (Intl.PluralRules, CLDR data), not ours. Not supported, and not used by any text: ICU's
 * apostrophe quoting, `selectordinal`, `offset:`, and number/date skeletons (numbers, money and dates are
 * formatted by the caller through Intl before they are passed in).
 */
export type MessageParams = Record<string, string | number | undefined | null>;

type Part =
  | string
  | { arg: string }
  | { pound: true }
  | { arg: string; kind: 'plural' | 'select'; options: Record<string, Part[]> };

const cache = new Map<string, Part[]>();
const pluralRules = new Map<string, Intl.PluralRules>();
const numberFormats = new Map<string, Intl.NumberFormat>();

/** The argument names a text uses, nested ones included (the placeholder test compares them across languages). */
export function argumentsOf(template: string): string[] {
  const names = new Set<string>();
  const walk = (parts: Part[]) => {
    for (const p of parts) {
      if (typeof p === 'string' || 'pound' in p) continue;
      names.add(p.arg);
      if ('options' in p) for (const o of Object.values(p.options)) walk(o);
    }
  };
  walk(parse(template));
  return [...names].sort();
}

/** The option keys of every plural/select in a text, e.g. ['count:plural:one', 'count:plural:other']. */
export function formsOf(template: string): Array<{ arg: string; kind: 'plural' | 'select'; keys: string[] }> {
  const out: Array<{ arg: string; kind: 'plural' | 'select'; keys: string[] }> = [];
  const walk = (parts: Part[]) => {
    for (const p of parts) {
      if (typeof p === 'string' || !('options' in p)) continue;
      out.push({ arg: p.arg, kind: p.kind, keys: Object.keys(p.options) });
      for (const o of Object.values(p.options)) walk(o);
    }
  };
  walk(parse(template));
  return out;
}

export function formatMessage(template: string, params: MessageParams | undefined, locale: string): string {
  if (!template.includes('{')) return template;
  return render(parse(template), params ?? {}, locale, null);
}

function render(parts: Part[], params: MessageParams, locale: string, pound: number | null): string {
  let out = '';
  for (const p of parts) {
    if (typeof p === 'string') out += p;
    else if ('pound' in p) out += pound === null ? '#' : numberFormat(locale).format(pound);
    else if (!('options' in p)) {
      const v = params[p.arg];
      out += v === undefined || v === null ? `{${p.arg}}` : String(v);
    } else {
      const v = params[p.arg];
      if (p.kind === 'plural') {
        const n = Number(v);
        const exact = p.options[`=${n}`];
        const chosen =
          exact ?? p.options[Number.isFinite(n) ? pluralRule(locale).select(n) : 'other'] ?? p.options.other ?? [];
        out += render(chosen, params, locale, Number.isFinite(n) ? n : null);
      } else {
        out += render(p.options[String(v)] ?? p.options.other ?? [], params, locale, pound);
      }
    }
  }
  return out;
}

function pluralRule(locale: string): Intl.PluralRules {
  let rule = pluralRules.get(locale);
  if (!rule) {
    rule = new Intl.PluralRules(locale);
    pluralRules.set(locale, rule);
  }
  return rule;
}

function numberFormat(locale: string): Intl.NumberFormat {
  let format = numberFormats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale);
    numberFormats.set(locale, format);
  }
  return format;
}

function parse(template: string): Part[] {
  let parts = cache.get(template);
  if (!parts) {
    const state = { s: template, i: 0 };
    parts = parseMessage(state, false);
    cache.set(template, parts);
  }
  return parts;
}

/** A message up to the end (top level) or to its closing brace (an option's message, `#` meaning the count). */
function parseMessage(st: { s: string; i: number }, nested: boolean): Part[] {
  const parts: Part[] = [];
  let text = '';
  while (st.i < st.s.length) {
    const c = st.s[st.i];
    if (c === '}' && nested) break;
    if (c === '#' && nested) {
      if (text) parts.push(text);
      text = '';
      parts.push({ pound: true });
      st.i++;
    } else if (c === '{') {
      const arg = parseArgument(st);
      if (typeof arg === 'string') text += arg;
      else {
        if (text) parts.push(text);
        text = '';
        parts.push(arg);
      }
    } else {
      text += c;
      st.i++;
    }
  }
  if (text) parts.push(text);
  return parts;
}

/** `{name}` or `{name, plural|select, key {msg} …}`; anything else is kept as text (a brace in a sentence). */
function parseArgument(st: { s: string; i: number }): Part | string {
  const start = st.i;
  const head = /^\{\s*(\w+)\s*(?:\}|,\s*(plural|select)\s*,)/.exec(st.s.slice(start));
  if (!head) {
    st.i++;
    return '{';
  }
  st.i += head[0].length;
  if (!head[2]) return { arg: head[1] };
  const options: Record<string, Part[]> = {};
  for (;;) {
    const key = /^\s*(=\d+|[\w-]+)\s*\{/.exec(st.s.slice(st.i));
    if (!key) break;
    st.i += key[0].length;
    options[key[1]] = parseMessage(st, true);
    st.i++; // the option's closing brace
  }
  const close = /^\s*\}/.exec(st.s.slice(st.i));
  if (!close) {
    // Not a well-formed plural/select: the text is shown as written.
    st.i = start + 1;
    return '{';
  }
  st.i += close[0].length;
  return { arg: head[1], kind: head[2] as 'plural' | 'select', options };
}
