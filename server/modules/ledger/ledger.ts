/**
 * The double-entry ledger (issue 31; table and accounts in server/db/schema/money.ts). A transfer is two or more
 * postings that sum to zero, written in the caller's transaction; nothing else writes ledger_postings. Balances are
 * derived (sums), never stored.
 *
 * The money modules do not post here directly: they call the movements (movements.ts), which know what each
 * movement of money does to every account and write the customer's credit history with it.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client';
import { LEDGER_ACCOUNTS, type LedgerAccount, type LedgerKind } from '../../db/schema';
import { createLedgerRepository } from './repository';

export interface TransferInput {
  userId: string;
  currency: string;
  kind: LedgerKind;
  paymentId?: string | null;
  invoiceId?: string | null;
  now: Date;
}

export type Legs = Partial<Record<LedgerAccount, number>>;

/**
 * Writes one transfer: a posting per non-zero leg. Throws (and so rolls the caller's transaction back) unless the
 * legs are whole minor units summing to zero; a transfer whose legs are all zero moves nothing and writes nothing.
 */
export async function transfer(tx: Db, input: TransferInput, legs: Legs): Promise<string | null> {
  const entries = Object.entries(legs).filter(([, amount]) => amount !== 0) as [LedgerAccount, number][];
  for (const [account, amount] of entries) {
    if (!LEDGER_ACCOUNTS.includes(account)) throw new Error(`Unknown ledger account ${account}`);
    if (!Number.isSafeInteger(amount))
      throw new Error(`A ledger posting is a whole number of minor units (${account}: ${amount})`);
  }
  if (entries.length === 0) return null;
  const sum = entries.reduce((s, [, amount]) => s + amount, 0);
  if (sum !== 0 || entries.length < 2) throw new Error(`Unbalanced ${input.kind} transfer: ${JSON.stringify(legs)}`);
  const transferId = randomUUID();
  await createLedgerRepository(tx).insertPostings(
    entries.map(([account, amount]) => ({
      transferId,
      userId: input.userId,
      currency: input.currency,
      account,
      kind: input.kind,
      amount,
      paymentId: input.paymentId ?? null,
      invoiceId: input.invoiceId ?? null,
      createdAt: input.now,
    })),
  );
  return transferId;
}

export type AccountBalances = Record<LedgerAccount, number> & { received: number; refunded: number };

export interface LedgerBalances extends AccountBalances {
  user_id: string;
  currency: string;
}

/**
 * Every customer's account balances per currency (or one customer's), with the payer account split into what was
 * received (its negative postings) and what was given back (its positive ones).
 */
export async function ledgerBalances(db: Db, userId?: string): Promise<LedgerBalances[]> {
  const rows = await createLedgerRepository(db).balances(userId);
  return rows.map((r) => {
    const out = {
      user_id: String(r.user_id),
      currency: String(r.currency),
      received: Number(r.received),
      refunded: Number(r.refunded),
    } as LedgerBalances;
    for (const a of LEDGER_ACCOUNTS) out[a] = Number(r[a] ?? 0);
    return out;
  });
}

/** Transfers whose postings do not sum to zero: none can be written (transfer() refuses), so any is tampering. */
export async function unbalancedTransfers(db: Db): Promise<string[]> {
  const rows = await createLedgerRepository(db).unbalancedTransfers();
  return rows.map((r) => String(r.transfer_id));
}
