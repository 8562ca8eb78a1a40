/** The steps in the order they run: what a record points at is imported before it. */
import { customerStep } from './customers';
import { deviceStep } from './devices';
import { planStep } from './plans';
import { poolStep } from './pools';
import { subscriptionStep } from './subscriptions';

export const IMPORT_STEPS = [deviceStep, planStep, poolStep, customerStep, subscriptionStep] as const;
