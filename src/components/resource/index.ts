export type { CustomInputContext, FieldDef, FieldOption, FieldType, ResourceDecl, RowAction, ToggleDef } from './types';
export { ResourceList } from './ResourceList';
export { ResourceShow } from './ResourceShow';
export { ResourceForm, toFormValues, toPayload } from './ResourceForm';
export { MoneyInput } from './MoneyInput';
export { MoneyCell, DateCell, StatusTag, renderField } from './cells';
export { StatusToggle } from './StatusToggle';
export { zodRules } from './rules';
