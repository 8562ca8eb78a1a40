/**
 * Site settings: read through a cache (every request reads them; they change rarely), written section by
 * section. Each change bumps `version`, which drops the cache and tells subscribers (the SPA's rendered
 * index.html, the mailer's SMTP transport) to rebuild, so a change takes effect without a restart.
 */
import { randomBytes } from 'node:crypto';
import { localizedContent, ownText } from '../../../contract/content';
import { pickLanguage, type LanguageCode } from '../../../contract/languages';
import { canonicalTimeZone, isTimeZone } from '../../../contract/time-zone';
import {
  POLICY_TYPES,
  type ContentTranslation,
  type AdminSettings,
  type Policy,
  type PolicyType,
  type PublicSettings,
  type SettingsUpdateParsed,
} from '../../../contract/schemas/settings';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { badRequest } from '../../lib/errors';
import type { SecretBox } from '../../lib/secret-box';
import { readAll, type FileStore } from '../../lib/storage';
import { changedFields, recordAudit, type AuditContext, type AuditEntry } from '../audit/trail';
import { defaultSettings, type StoredSettings } from './defaults';
import { storedDunning, updatedDunning } from './dunning';
import type { SettingsRepository } from './repository';

export const SETTINGS_MESSAGES = {
  public: 'Settings retrieved successfully',
  policy: 'Policy retrieved successfully',
  policyNotFound: 'Policy not found',
  admin: 'Settings retrieved successfully',
  updated: 'Settings updated successfully',
  logoUploaded: 'Logo uploaded successfully',
  logoNotFound: 'No logo has been uploaded',
  tooLarge: 'File is too large (max 1 MB)',
  unsupported: 'Unsupported file type',
  noFile: 'Send the image in the multipart field "file"',
  testSent: 'Test e-mail sent successfully',
  translationLanguage: 'Content can be translated only into the offered languages other than the default',
} as const;

/** A translation as stored: its blank texts and empty lists left out (those fall back to the default language's). */
function normalizedTranslation(t: ContentTranslation): ContentTranslation {
  const out: ContentTranslation = {};
  if (t.achievements?.length) out.achievements = t.achievements;
  if (t.faq?.length) out.faq = t.faq;
  if (ownText(t.about)) out.about = t.about;
  const policies = Object.fromEntries(Object.entries(t.policies ?? {}).filter(([, text]) => ownText(text)));
  if (Object.keys(policies).length) out.policies = policies;
  return out;
}

export const LOGO_MAX_BYTES = 1024 * 1024;
export const LOGO_URL = '/api/settings/logo';

/** The image type of a file from its first bytes (PNG, JPEG, WebP), or null. */
export function sniffImageType(bytes: Buffer): { contentType: string; ext: string } | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return { contentType: 'image/png', ext: 'png' };
  }
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
    return { contentType: 'image/jpeg', ext: 'jpg' };
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') {
    return { contentType: 'image/webp', ext: 'webp' };
  }
  return null;
}

const policyKey = (type: PolicyType) => `policy:${type}`;
/** The logo's file name as stored in the settings ("logo-<random>.<ext>"), and its key in the file store. */
const LOGO_FILE = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;
const logoKey = (file: string) => `uploads/${file}`;

/** Runs a change with a repository and a database handle bound to one transaction (the audit event goes with it). */
export type SettingsTransaction = <T>(work: (repository: SettingsRepository, db: Db) => Promise<T>) => Promise<T>;

const isRecord = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

/**
 * The audit diff of each settings section a write changed: [{section, changes}] for sections whose values
 * differ (a form saved unchanged records nothing). Object sections are compared key by key over their defaults
 * (company's social links as 'social.<network>'); list and single-value sections as {<section>: {from, to}};
 * the policies as one 'policies' section keyed by policy. The SMTP password is compared opened and recorded
 * only as {changed: true}.
 */
export function settingsChanges(
  written: ReadonlyArray<{ key: string; before: unknown; after: unknown }>,
  openSecret: (sealed: string) => string | null,
): Array<{ section: string; changes: Record<string, unknown> }> {
  const d = defaultSettings();
  const object = (base: Record<string, unknown>, value: unknown) => ({ ...base, ...(isRecord(value) ? value : {}) });
  const sections = new Map<string, Record<string, unknown>>();
  const add = (section: string, changes: Record<string, unknown>) => {
    if (Object.keys(changes).length) sections.set(section, { ...sections.get(section), ...changes });
  };
  for (const { key, before, after } of written) {
    if (key.startsWith('policy:')) {
      const type = key.slice('policy:'.length);
      const fallback = d.policies[type as PolicyType]?.markdown ?? null;
      add('policies', changedFields({ [type]: before ?? fallback }, { [type]: after }));
      continue;
    }
    switch (key) {
      case 'company': {
        const flat = (value: unknown) => {
          const { social, ...rest } = object(d.company as unknown as Record<string, unknown>, value);
          const links = object(d.company.social, social);
          return { ...rest, ...Object.fromEntries(Object.entries(links).map(([k, v]) => [`social.${k}`, v])) };
        };
        add(key, changedFields(flat(before), flat(after)));
        break;
      }
      case 'billing':
        add(key, changedFields(object(d.billing, before), object(d.billing, after)));
        break;
      case 'dunning': {
        const flat = (value: unknown) => {
          const { steps, late_fee, enabled } = storedDunning(value);
          return { enabled, steps: steps.map((s) => s.offset_days).join(', '), ...late_fee };
        };
        add(key, changedFields(flat(before), flat(after)));
        break;
      }
      case 'uploads':
        add(
          key,
          changedFields(
            object(d.uploads as unknown as Record<string, unknown>, before),
            object(d.uploads as unknown as Record<string, unknown>, after),
          ),
        );
        break;
      case 'smtp': {
        const opened = (value: unknown) => {
          const smtp = object(d.smtp as unknown as Record<string, unknown>, value);
          return { ...smtp, password: typeof smtp.password === 'string' ? openSecret(smtp.password) : null };
        };
        add(key, changedFields(opened(before), opened(after), { secret: ['password'] }));
        break;
      }
      case 'time_zone': {
        // '' (stored for "none": the table's values are never null) and an absent row are the same: no zone.
        const zone = (value: unknown) => (typeof value === 'string' && value ? value : null);
        add(key, changedFields({ [key]: zone(before) }, { [key]: zone(after) }));
        break;
      }
      case 'logo':
        add(
          key,
          changedFields(
            object({ file: null, content_type: null }, before),
            object({ file: null, content_type: null }, after),
          ),
        );
        break;
      default: {
        const fallback = (d as unknown as Record<string, unknown>)[key] ?? null;
        add(key, changedFields({ [key]: before === undefined ? fallback : before }, { [key]: after }));
      }
    }
  }
  return [...sections].map(([section, changes]) => ({ section, changes }));
}

export class SettingsService {
  private cache: Promise<StoredSettings> | null = null;
  private listeners = new Set<() => void>();
  /** Bumped on every change. */
  version = 0;

  constructor(
    private readonly deps: {
      repository: SettingsRepository;
      clock: Clock;
      box: SecretBox;
      /** Keeps the logo as uploads/<file> (app.storage: DATA_DIR/uploads on the local disk, or S3). */
      store: FileStore;
      /** Absent: changes are not audited. */
      transaction?: SettingsTransaction;
      /** Tells every process (this one included) that the settings changed; absent: only this process. */
      publish?: () => void;
    },
  ) {}

  /** Writes entries and, with an audit context, one settings.updated event per changed section, in one transaction. */
  private async write(
    entries: Array<{ key: string; value: unknown; merge?: Record<string, unknown> }>,
    audit: AuditContext | undefined,
  ): Promise<void> {
    const { transaction, repository, clock, box } = this.deps;
    const now = clock.now();
    if (!transaction || !audit) {
      await repository.upsert(entries, now);
      return;
    }
    await transaction(async (repo, db) => {
      const written = await repo.upsert(entries, now);
      for (const { section, changes } of settingsChanges(written, (sealed) => box.open(sealed))) {
        const entry: AuditEntry = { action: 'settings.updated', targetType: 'settings', targetId: section, changes };
        await recordAudit(db, clock, audit, entry);
      }
    });
  }

  /** Called after every change (cache already dropped). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The settings changed here: every process drops its copy (this one before this returns). */
  invalidate(): void {
    if (this.deps.publish) this.deps.publish();
    else this.changed();
  }

  /** The settings changed (here or in another process): drop the cache and tell the listeners. */
  changed(): void {
    this.cache = null;
    this.version++;
    for (const listener of this.listeners) listener();
  }

  async stored(): Promise<StoredSettings> {
    this.cache ??= this.load().catch((error: unknown) => {
      this.cache = null;
      throw error;
    });
    return this.cache;
  }

  private async load(): Promise<StoredSettings> {
    const s = defaultSettings();
    const merge = <T>(base: T, value: unknown): T =>
      value && typeof value === 'object' && !Array.isArray(value) && base && typeof base === 'object'
        ? { ...base, ...(value as object) }
        : (value as T);
    for (const row of await this.deps.repository.all()) {
      if (row.key.startsWith('policy:')) {
        const type = row.key.slice('policy:'.length) as PolicyType;
        if ((POLICY_TYPES as readonly string[]).includes(type) && typeof row.value === 'string') {
          s.policies[type] = { markdown: row.value, updated_at: row.updatedAt.toISOString() };
        }
        continue;
      }
      switch (row.key) {
        case 'company':
          s.company = merge(s.company, row.value);
          s.company.social = merge(defaultSettings().company.social, s.company.social);
          break;
        case 'logo':
          s.logo = (row.value as StoredSettings['logo']) ?? null;
          break;
        case 'currency':
          if (typeof row.value === 'string') s.currency = row.value;
          break;
        case 'tax_rate_bp':
          if (typeof row.value === 'number') s.tax_rate_bp = row.value;
          break;
        case 'achievements':
        case 'faq':
        case 'coverage_areas':
          if (Array.isArray(row.value)) (s as unknown as Record<string, unknown>)[row.key] = row.value;
          break;
        case 'billing':
          s.billing = merge(s.billing, row.value);
          break;
        case 'dunning':
          s.dunning = storedDunning(row.value);
          break;
        case 'uploads':
          s.uploads = merge(s.uploads, row.value);
          break;
        case 'smtp':
          s.smtp = merge(s.smtp, row.value);
          break;
        case 'languages':
          s.languages = merge(s.languages, row.value);
          break;
        case 'time_zone':
          // A zone this runtime's Intl does not know (a name ICU dropped) counts as none rather than failing.
          s.time_zone = isTimeZone(row.value) ? row.value : null;
          break;
        case 'about':
          if (typeof row.value === 'string') s.about = row.value;
          break;
        case 'content_translations':
          if (isRecord(row.value)) {
            s.content_translations = row.value as StoredSettings['content_translations'];
            s.content_translations_updated_at = row.updatedAt.toISOString();
          }
          break;
      }
    }
    return s;
  }

  /** The language a reader asking for `lang` gets: it when offered (es-MX → es), else the ISP's default. */
  private languageFor(s: StoredSettings, lang: string | undefined): LanguageCode {
    return pickLanguage(lang ? [lang] : [], s.languages.offered, s.languages.default);
  }

  /**
   * The public settings. Achievements, faq and about are the default language's, with the other offered languages'
   * versions in content_translations (the web app picks its reader's); with `lang` (?lang=es) they are in that
   * language, field by field, else the default's.
   */
  async publicSettings(lang?: string): Promise<PublicSettings> {
    const s = await this.stored();
    const translations: PublicSettings['content_translations'] = {};
    for (const code of s.languages.offered) {
      const own = s.content_translations[code];
      if (!own || code === s.languages.default) continue;
      const { policies: _policies, ...text } = own;
      if (Object.keys(text).length) translations[code] = text;
    }
    const base: PublicSettings = {
      company: { ...s.company, logo_url: s.logo ? `${LOGO_URL}?v=${s.logo.file.split('.')[0]}` : null },
      currency: s.currency,
      tax_rate_bp: s.tax_rate_bp,
      achievements: s.achievements,
      faq: s.faq,
      about: s.about,
      coverage_areas: s.coverage_areas,
      languages: s.languages,
      time_zone: s.time_zone,
      content_language: s.languages.default,
      content_translations: translations,
    };
    if (lang === undefined) return base;
    const language = this.languageFor(s, lang);
    return { ...localizedContent(base, language), content_language: language };
  }

  async adminSettings(): Promise<AdminSettings> {
    const s = await this.stored();
    const { password, ...smtp } = s.smtp;
    return {
      ...(await this.publicSettings()),
      // Every stored version, policies included (a language no longer offered keeps its texts).
      content_translations: s.content_translations,
      billing: s.billing,
      dunning: s.dunning,
      uploads: s.uploads,
      smtp: { ...smtp, password_set: Boolean(password) },
      policies: Object.fromEntries(POLICY_TYPES.map((t) => [t, s.policies[t].markdown])) as AdminSettings['policies'],
    };
  }

  /** A policy in the default language, or with `lang` in that language when it has one (else the default's). */
  async policy(type: string, lang?: string): Promise<Policy | null> {
    if (!(POLICY_TYPES as readonly string[]).includes(type)) return null;
    const s = await this.stored();
    const p = s.policies[type as PolicyType];
    const language = this.languageFor(s, lang);
    const own =
      language === s.languages.default
        ? undefined
        : ownText(s.content_translations[language]?.policies?.[type as PolicyType]);
    return own
      ? { type: type as PolicyType, markdown: own, updated_at: s.content_translations_updated_at, language }
      : { type: type as PolicyType, markdown: p.markdown, updated_at: p.updated_at, language: s.languages.default };
  }

  /** SMTP settings with the password opened, for sending. */
  async smtp(): Promise<StoredSmtp & { plainPassword: string | null }> {
    const smtp = (await this.stored()).smtp;
    return { ...smtp, plainPassword: smtp.password ? this.deps.box.open(smtp.password) : null };
  }

  async update(input: SettingsUpdateParsed, audit?: AuditContext): Promise<AdminSettings> {
    const current = await this.stored();
    const entries: Array<{ key: string; value: unknown; merge?: Record<string, unknown> }> = [];
    if (input.content_translations) {
      // Only the offered languages other than the default (as this same request leaves them), checked before
      // anything is written: a refused request changes nothing.
      const { offered, default: base } = input.languages ?? current.languages;
      const refused = Object.keys(input.content_translations).filter(
        (code) => !offered.includes(code as LanguageCode) || code === base,
      );
      if (refused.length)
        throw badRequest(
          SETTINGS_MESSAGES.translationLanguage,
          refused.map((code) => ({
            field: `content_translations.${code}`,
            message: SETTINGS_MESSAGES.translationLanguage,
          })),
        );
      const translations = { ...current.content_translations };
      for (const [code, value] of Object.entries(input.content_translations) as Array<
        [LanguageCode, ContentTranslation | null | undefined]
      >) {
        const normalized = value ? normalizedTranslation(value) : {};
        if (Object.keys(normalized).length) translations[code] = normalized;
        else delete translations[code];
      }
      entries.push({ key: 'content_translations', value: translations });
    }
    if (input.company) {
      const { social, ...rest } = input.company;
      entries.push({
        key: 'company',
        value: { ...current.company, ...rest, social: { ...current.company.social, ...social } },
      });
    }
    if (input.currency !== undefined) entries.push({ key: 'currency', value: input.currency });
    if (input.tax_rate_bp !== undefined) entries.push({ key: 'tax_rate_bp', value: input.tax_rate_bp });
    if (input.achievements) entries.push({ key: 'achievements', value: input.achievements });
    if (input.faq) entries.push({ key: 'faq', value: input.faq });
    if (input.about !== undefined) entries.push({ key: 'about', value: input.about });
    if (input.coverage_areas) entries.push({ key: 'coverage_areas', value: input.coverage_areas });
    if (input.languages) entries.push({ key: 'languages', value: input.languages });
    // null clears it; stored as '' (a settings value is never null).
    if (input.time_zone !== undefined)
      entries.push({ key: 'time_zone', value: input.time_zone === null ? '' : canonicalTimeZone(input.time_zone) });
    // Merged with the stored row under its lock (not the cache): invoices advance invoice_next_number meanwhile.
    if (input.billing) entries.push({ key: 'billing', value: input.billing, merge: defaultSettings().billing });
    if (input.dunning) entries.push({ key: 'dunning', value: updatedDunning(current.dunning, input.dunning) });
    if (input.uploads)
      entries.push({
        key: 'uploads',
        value: input.uploads,
        merge: defaultSettings().uploads as unknown as Record<string, unknown>,
      });
    if (input.smtp) {
      const { password, ...rest } = input.smtp;
      // '' or absent keeps the stored password, null clears it, anything else replaces it (sealed).
      const sealed = password === null ? null : password ? this.deps.box.seal(password) : current.smtp.password;
      entries.push({ key: 'smtp', value: { ...current.smtp, ...rest, password: sealed } });
    }
    for (const type of POLICY_TYPES) {
      const markdown = input.policies?.[type];
      if (markdown !== undefined) entries.push({ key: policyKey(type), value: markdown });
    }
    await this.write(entries, audit);
    this.invalidate();
    return this.adminSettings();
  }

  /** Stores a checked image as the logo (replacing the previous file). */
  async setLogo(bytes: Buffer, type: { contentType: string; ext: string }, audit?: AuditContext): Promise<void> {
    const { store } = this.deps;
    const previous = (await this.stored()).logo;
    const file = `logo-${randomBytes(16).toString('hex')}.${type.ext}`;
    await store.put(logoKey(file), bytes, { contentType: type.contentType, size: bytes.length });
    try {
      await this.write([{ key: 'logo', value: { file, content_type: type.contentType } }], audit);
    } catch (error) {
      await store.delete(logoKey(file)).catch(() => {});
      throw error;
    }
    this.invalidate();
    if (previous && LOGO_FILE.test(previous.file)) await store.delete(logoKey(previous.file)).catch(() => {});
  }

  async logo(): Promise<{ bytes: Buffer; contentType: string } | null> {
    const logo = (await this.stored()).logo;
    if (!logo || !LOGO_FILE.test(logo.file)) return null;
    try {
      const object = await this.deps.store.get(logoKey(logo.file));
      return object ? { bytes: await readAll(object), contentType: logo.content_type } : null;
    } catch {
      return null;
    }
  }
}

type StoredSmtp = StoredSettings['smtp'];

/** Writes the default settings (demo FAQ, coverage, policies...) into an empty settings table. */
export async function seedDefaultSettings(repository: SettingsRepository, now: Date): Promise<void> {
  if ((await repository.all()).length) return;
  const d = defaultSettings();
  await repository.upsert(
    [
      { key: 'company', value: d.company },
      { key: 'currency', value: d.currency },
      { key: 'tax_rate_bp', value: d.tax_rate_bp },
      { key: 'achievements', value: d.achievements },
      { key: 'faq', value: d.faq },
      { key: 'coverage_areas', value: d.coverage_areas },
      { key: 'billing', value: d.billing },
      ...POLICY_TYPES.map((t) => ({ key: policyKey(t), value: d.policies[t].markdown })),
    ],
    now,
  );
}
