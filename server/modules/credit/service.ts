/**
 * Reading a customer's credit and staff adjustments (issue 21). The balance is always the sum of the ledger
 * (ledger.ts); an adjustment locks the customer, reads the balance, refuses to take it below zero, writes the
 * entry and its audit event in one transaction.
 */
import { formatMoney } from '../../../contract/money';
import {
  CREDIT_MESSAGES as M,
  type CreditAccount,
  type CreditAdjusted,
  type CreditAdjustInputParsed,
  type CreditQueryParsed,
} from '../../../contract/schemas/credit';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { conflict } from '../../lib/errors';
import { recordAudit, type AuditContext } from '../audit/trail';
import { creditAdjusted } from '../ledger/movements';
import { balanceOf, creditAccount, lockCustomer, toCreditEntry, userExists } from './ledger';

export class CreditService {
  constructor(private readonly deps: { db: Db; clock: Clock; defaultCurrency: () => Promise<string> }) {}

  /** Whether there is a user with this id (the staff endpoints answer 404 otherwise). */
  async userExists(id: string): Promise<boolean> {
    return userExists(this.deps.db, id);
  }

  /** Balances and a page of history; 404 when there is no such user. */
  async account(userId: string, query: CreditQueryParsed): Promise<CreditAccount> {
    return creditAccount(this.deps.db, userId, query);
  }

  /** Staff add (amount > 0) or take (amount < 0) credit with a reason; never below zero (409). */
  async adjust(userId: string, input: CreditAdjustInputParsed, audit: AuditContext): Promise<CreditAdjusted> {
    const { db, clock } = this.deps;
    const currency = input.currency ?? (await this.deps.defaultCurrency()).toUpperCase();
    return db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const now = clock.now();
      await lockCustomer(tx, userId);
      const before = await balanceOf(tx, userId, currency);
      const after = before + input.amount;
      if (after < 0) throw conflict(M.belowZero(formatMoney(before, currency, 'en-US')));
      const row = await creditAdjusted(tx, {
        userId,
        amount: input.amount,
        currency,
        reason: input.reason,
        createdBy: audit.actor.id,
        now,
      });
      await recordAudit(tx, clock, audit, {
        action: 'credit.adjusted',
        targetType: 'user',
        targetId: userId,
        changes: {
          amount: { from: null, to: input.amount },
          currency: { from: null, to: currency },
          reason: { from: null, to: input.reason },
          balance: { from: before, to: after },
          entry: { from: null, to: row.id },
        },
      });
      return { entry: toCreditEntry(row, null), balance: { currency, amount: after } };
    });
  }
}
