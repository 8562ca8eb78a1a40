/** The steps in the order they run: what a record points at is imported before it. Usage runs last (steps/usage.ts). */
import { customerStep } from './customers';
import { deviceStep } from './devices';
import { invoicesStep } from './invoices';
import { planStep } from './plans';
import { poolStep } from './pools';
import { subscriptionStep } from './subscriptions';
import { vouchersStep } from './vouchers';

export const IMPORT_STEPS = [
  deviceStep,
  planStep,
  poolStep,
  customerStep,
  subscriptionStep,
  invoicesStep,
  vouchersStep,
] as const;
