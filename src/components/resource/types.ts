import type { ComponentType, ReactNode } from 'react';
import type { BaseRecord, CrudFilter } from '@refinedev/core';
import type { ZodType } from 'zod';

/** How a field is shown and edited. */
/** `date`: a date and time (ISO 8601, a picker with the time); `day`: a calendar date (YYYY-MM-DD, a picker without). */
export type FieldType =
  | 'text'
  | 'textarea'
  | 'number'
  | 'money'
  | 'boolean'
  | 'select'
  | 'tags'
  | 'date'
  | 'day'
  | 'status'
  | 'custom';

/** What a custom form input is given: the field, the stored record (edit; undefined on create) and the action. */
export interface CustomInputContext {
  field: FieldDef;
  record: BaseRecord | undefined;
  action: 'create' | 'edit';
}

export interface FieldOption {
  value: string;
  /** i18n key of the option's label. */
  labelKey: string;
  /** Tag colour for status fields. */
  color?: string;
}

export interface FieldDef {
  name: string;
  type: FieldType;
  /** i18n key of the label. */
  labelKey: string;
  /** select / status values. */
  options?: FieldOption[];
  /** A list column (in declaration order). */
  column?: boolean;
  /**
   * From which width the column is shown (ResponsiveTable): 1 = a key column, always shown (at most two per
   * resource, e.g. the name or number and the status); 2 = from tablet width (antd `md`, ≥768 px; the default);
   * 3 = on wide screens only (`lg`, ≥992 px). A column not shown moves into the row's expandable details.
   */
  priority?: 1 | 2 | 3;
  /** Sortable on the server (the API's sort field has the same name). */
  sortable?: boolean;
  /**
   * A filter in the list's filter bar: true → a select of the options (eq); 'text' → a text box (eq, applied
   * on Enter, checked with `schema` when given); 'dateRange' → from and to dates (gte start of the first day,
   * lte end of the last day; the data provider maps them to the API's range keys).
   */
  filter?: boolean | 'text' | 'dateRange';
  /** Placeholder of a text filter (i18n key), e.g. "e.g. plan.updated"; default: the label. */
  filterPlaceholderKey?: string;
  /** Shown on the show page (default: true). */
  show?: boolean;
  /** In the create/edit form. */
  form?: boolean;
  /** The contract's zod schema of this field: the form validates each value with it. */
  schema?: ZodType;
  /** Empty form value sent as null instead of being left out (e.g. data cap null = unlimited). */
  emptyAsNull?: boolean;
  /** Money fields: the record field that holds the currency (default 'currency'). */
  currencyField?: string;
  /** Text shown for an empty value (i18n key), e.g. "Unlimited". */
  emptyKey?: string;
  /** Suffix after numbers (i18n key), e.g. "Mbps". */
  unitKey?: string;
  /** Form default on create. */
  defaultValue?: unknown;
  /** Custom cell/show renderer. */
  render?: (value: unknown, record: BaseRecord) => ReactNode;
  /**
   * type 'custom': renders the field's form item(s) itself (inside the form; it may use Form.Item with nested
   * names and Form.useWatch). Other types ignore it.
   */
  input?: (ctx: CustomInputContext) => ReactNode;
  /**
   * The form's initial value on edit from the stored one (default: the stored value itself). Return undefined to
   * start empty, e.g. for write-only secrets that must never be pre-filled.
   */
  fromRecord?: (value: unknown, record: BaseRecord) => unknown;
  /**
   * The value sent for this field, from its form value and all form values (default: trimmed, blank left out).
   * Return undefined to leave the field out of the payload.
   */
  toPayload?: (value: unknown, values: Record<string, unknown>) => unknown;
}

/** A two-valued field switched in the list row with a body of only that field (e.g. plan status, is_active). */
export interface ToggleDef {
  field: string;
  on: string | boolean;
  off: string | boolean;
  labelKey: string;
  /** Success toasts (i18n keys) after switching on / off. */
  onMessageKey: string;
  offMessageKey: string;
  /**
   * Switching off stops something (selling a plan, taking payments): it asks first, naming the record
   * (i18n keys given {name}, the record's `nameField`, default 'name'). Switching on never asks.
   */
  confirmOff?: { titleKey: string; contentKey?: string; okKey: string; nameField?: string };
  /**
   * When this record cannot be switched off as it stands (e.g. the default payment gateway): what the dialog
   * shows instead of the question (it may act and then `close`); null when it can.
   */
  offBlocked?: (ctx: { record: BaseRecord; close: () => void }) => ReactNode | null;
}

export type RowAction = 'show' | 'edit' | 'delete';

/** The pages of a resource: the generic ones are generated from its fields; a page given here replaces one. */
export type PageAction = 'list' | 'show' | 'create' | 'edit';

/**
 * A page of one's own: `{ component }` (loaded with the shell, e.g. the dashboard's first screen), or a loader of the module that has it (`() => import('./TicketDetail')`,
 * its default export or its only component export; or `.then((m) => m.TicketDetail)`), or the name of another
 * action whose page this one shares (the users list and a user's page are one screen: `show: 'list'`).
 */
export type PageSpec = { component: ComponentType } | (() => Promise<unknown>) | PageAction;

/** Where the resource sits in the menu. */
export interface MenuSpec {
  /** Ordering among the menu's items (and a group's children); ties keep the files' order. */
  order: number;
  /** i18n key of the label (default: the declaration's titleKey). */
  labelKey?: string;
  /** An @ant-design/icons component, e.g. ReadOutlined. */
  icon?: ComponentType;
  /** The group it sits in (resources/groups.ts: billing, network). */
  group?: string;
  /** Also in the customers' slimmer portal navigation. */
  portal?: boolean;
}

/**
 * One resource, declared once (docs/architecture.md "Resources are declared, pages generated"; docs/adding-a-resource.md),
 * in `resources/<folder>/resource.ts` with defineResource. The menu item, the Refine resource, the routes and
 * the generic ResourceList/ResourceShow/ResourceForm pages are derived from it; who sees and opens them comes
 * from the role matrix entry it names (contract/roles.ts, `access`).
 */
export interface ResourceDecl {
  /** The Refine resource name, unique. */
  name: string;
  /** The role matrix entry (contract/roles.ts SHIPPED_RESOURCES) that gives its route and audiences (default: name). */
  access?: string;
  /** i18n keys of the titles. */
  titleKey: string;
  singularKey?: string;
  /** The menu item; false or absent: no item (the routes exist all the same). */
  menu?: MenuSpec | false;
  /** Paths that are not below the matrix route (e.g. a user's page is /dashboard/user/:id); `also` adds more paths for a page. */
  routes?: { show?: string; also?: Record<string, PageAction> };
  /** Pages of its own, replacing generated ones. A resource without fields has only the pages given here. */
  pages?: Partial<Record<PageAction, PageSpec>>;
  /** The fields: with them the list, show, create and edit pages are generated (as actions and canCreate allow). */
  fields?: FieldDef[];
  /** Adds a free-text search box to the filter bar (?search=). */
  search?: boolean;
  /** Row actions (default: show, edit, delete). */
  actions?: RowAction[];
  /** Whether the list shows a Create button (default true). */
  canCreate?: boolean;
  /**
   * The audit trail's target types this resource's changes are recorded under (`plan` for plan.updated): the
   * audit screen's Target type filter offers every declared resource's. Default: for a resource the server's
   * crudModule serves (its matrix entry has an api path), its matrix entry's name, crudModule's default.
   */
  auditTargets?: readonly string[];
  toggle?: ToggleDef;
  /** Success toasts (i18n keys). */
  messages?: { created?: string; updated?: string; deleted?: string };
  /** Extra per-row content (rendered in the actions column) and an expandable row. */
  rowExtra?: (record: BaseRecord) => ReactNode;
  expandedRow?: (record: BaseRecord) => ReactNode;
  /** Extra buttons in the list's header, given the list's current filters (e.g. an export of what is shown). */
  listButtons?: (ctx: { filters: CrudFilter[] }) => ReactNode;
  /** Content below the show page's fields (e.g. an event's diff). */
  showExtra?: (record: BaseRecord) => ReactNode;
  /** Passed to every data hook (e.g. fallbackMessage for resources without spec §8 texts). */
  meta?: Record<string, unknown>;
  /** Default sort. */
  defaultSort?: { field: string; order: 'asc' | 'desc' };
}
