/**
 * The update body of a resource from its create body: every field optional and without its `.default()`. zod's
 * `.partial()` keeps a field's default, so a PUT of one field would parse into a body that also carries every
 * defaulted field at its default, and the update would reset them. Shared by the contract schemas (the ones
 * `npm run new:resource` writes) and the server's crudModule (its default update schema).
 */
import { z } from 'zod';

/** A schema under its `.default()`/`.prefault()` wrappers. */
export type WithoutDefault<T> =
  T extends z.ZodDefault<infer I> ? WithoutDefault<I> : T extends z.ZodPrefault<infer I> ? WithoutDefault<I> : T;

export type PartialWithoutDefaults<S extends z.core.$ZodLooseShape> = z.ZodObject<{
  -readonly [K in keyof S]: z.ZodOptional<WithoutDefault<S[K]>>;
}>;

/** The schema under its defaults (a default inside `.optional()` stays: `.optional().default(x)` is the usual order). */
export function withoutDefault<T extends z.ZodType>(schema: T): WithoutDefault<T> {
  let s: z.ZodType = schema;
  for (let i = 0; i < 8; i++) {
    const def = (s as unknown as { def: { type: string; innerType?: z.ZodType } }).def;
    if ((def.type !== 'default' && def.type !== 'prefault') || !def.innerType) break;
    s = def.innerType;
  }
  return s as WithoutDefault<T>;
}

/** Every field of `input` optional and without its default: a field an update leaves out stays unchanged. */
export function partialWithoutDefaults<S extends z.core.$ZodLooseShape>(
  input: z.ZodObject<S>,
): PartialWithoutDefaults<S> {
  const shape = Object.fromEntries(
    Object.entries(input.shape as Record<string, z.ZodType>).map(([field, schema]) => [
      field,
      withoutDefault(schema).optional(),
    ]),
  );
  return z.object(shape) as unknown as PartialWithoutDefaults<S>;
}
