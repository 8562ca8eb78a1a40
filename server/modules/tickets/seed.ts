/** Demo tickets for customer@isp.local (a fresh development database only): one answered by support. */
import type { Db } from '../../db/client';
import { createTicketRepository } from './repository';
import { formatTicketNumber } from './service';

const HOUR = 3_600_000;

export async function seedDemoTickets(tx: Db, now: Date): Promise<void> {
  const repository = createTicketRepository(tx);
  const idOf = (email: string) => repository.userIdByEmail(email);
  const [customer, support, technician] = await Promise.all([
    idOf('customer@isp.local'),
    idOf('support@isp.local'),
    idOf('technician@isp.local'),
  ]);
  if (!customer || !support || !technician) return;
  if (await repository.any()) return;
  const at = (hoursAgo: number) => new Date(now.getTime() - hoursAgo * HOUR);

  const number = async () => formatTicketNumber(await repository.nextNumber(tx));
  const dropped = await repository.insert(tx, {
    number: await number(),
    subject: 'Internet drops every evening',
    description:
      'Since Monday the connection drops for a few minutes almost every evening around 8 pm. The router light turns red, then green again.',
    category: 'technical',
    priority: 'high',
    status: 'in_progress',
    createdBy: customer,
    assignedTo: technician,
    createdAt: at(30),
    updatedAt: at(6),
    lastReplyAt: at(6),
    firstResponseAt: at(26),
  });
  await repository.insertReplies(tx, [
    {
      ticketId: dropped.id,
      authorId: support,
      message:
        'Thank you for reporting this. We see short outages on your line in our monitoring too; a technician is looking into it.',
      createdAt: at(26),
    },
    {
      ticketId: dropped.id,
      authorId: technician,
      message: 'Line noise on the street cabinet port; swap scheduled.',
      isInternal: true,
      createdAt: at(20),
    },
    {
      ticketId: dropped.id,
      authorId: customer,
      message: 'Thanks! It happened again yesterday at 8:15 pm.',
      createdAt: at(6),
    },
  ]);
  await repository.insert(tx, {
    number: await number(),
    subject: 'Question about my first invoice',
    description: 'My first invoice includes a setup fee. Is it charged only once?',
    category: 'billing',
    priority: 'normal',
    status: 'open',
    createdBy: customer,
    createdAt: at(3),
    updatedAt: at(3),
  });
  await repository.insert(tx, {
    number: await number(),
    subject: 'Router placement after moving the living room',
    description: 'Can the installer move the router to the other side of the living room?',
    category: 'installation',
    priority: 'low',
    status: 'resolved',
    createdBy: customer,
    createdAt: at(120),
    updatedAt: at(96),
    resolvedAt: at(96),
  });
}
