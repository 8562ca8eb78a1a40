/**
 * The demo's support desk: tickets opened by customers over the year and handled through the ticket service
 * (replies, internal notes, assignment, status changes), in every status, with one screenshot attached.
 */
import { Readable } from 'node:stream';
import type { Role } from '../../../contract/roles';
import {
  ticketCreateSchema,
  type TicketCategory,
  type TicketPriority,
  type TicketStatus,
} from '../../../contract/schemas/ticket';
import type { UploadPart } from '../../lib/stored-files';
import type { DemoRandom } from './random';
import type { DemoServices } from './services';

/** A 1×1 PNG: the "screenshot" a customer attaches (the upload checks the bytes, so it must be a real PNG). */
export const DEMO_ATTACHMENT_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

type Person = { id: string; role: Role; name: string };

export interface TicketContext {
  services: DemoServices;
  support: Person;
  technician: Person;
  admin: Person;
  attachment: Buffer;
}

export interface TicketStep {
  day: number;
  minute: number;
  /** The step that opens the ticket (counted in the summary). */
  opens: boolean;
  run(ctx: TicketContext): Promise<void>;
}

interface TicketCustomer {
  id?: string;
  fate: string;
  signupDay: number;
  cancelDay: number | null;
}

const TOPICS: ReadonlyArray<{
  subject: string;
  description: string;
  category: TicketCategory;
  priority: TicketPriority;
  answer: string;
}> = [
  {
    subject: 'Slow speeds in the evening',
    description: 'Between 7 and 10 pm my speed test shows a third of my plan. During the day everything is fine.',
    category: 'technical',
    priority: 'normal',
    answer:
      'Thanks for the speed tests. We moved your line to a less busy port on the street cabinet; please test again tonight.',
  },
  {
    subject: 'No internet since this morning',
    description: 'The router shows a red light and nothing works, even after restarting it twice.',
    category: 'technical',
    priority: 'urgent',
    answer:
      'A fibre splice in your street was damaged by road works. Our crew repaired it at noon; your connection is back.',
  },
  {
    subject: 'Charged twice this month?',
    description: 'I see two payments on my bank statement for the same invoice. Can you check?',
    category: 'billing',
    priority: 'high',
    answer:
      'Only one payment reached us; the second line on your statement is the card pre-authorisation, released within 5 days.',
  },
  {
    subject: 'Change the billing e-mail address',
    description: 'Please send my invoices to my work address from now on.',
    category: 'account',
    priority: 'low',
    answer: 'You can change it yourself under Profile; we have updated it for you this time.',
  },
  {
    subject: 'Move the router to the upstairs office',
    description: 'Could a technician move the fibre terminal and router to the first floor?',
    category: 'installation',
    priority: 'normal',
    answer: 'Sure: a technician can do it on the next visit in your area. We will call you to agree on a time.',
  },
  {
    subject: 'Wi-Fi does not reach the garden',
    description: 'Is there a mesh unit or repeater you can recommend for the garden office?',
    category: 'technical',
    priority: 'low',
    answer: 'The Pro 300 plan includes a second mesh unit; for your plan we can lend one for 2 USD a month.',
  },
  {
    subject: 'Invoice address is wrong',
    description: 'My last invoice shows my old street. Could you correct it?',
    category: 'billing',
    priority: 'normal',
    answer: 'Corrected: the next invoice carries your new address. Past invoices keep the address of the time.',
  },
  {
    subject: 'Static IP for my camera system',
    description: 'I need to reach my cameras from outside. Can I get a static address?',
    category: 'other',
    priority: 'normal',
    answer: 'A static IP is included with Pro 300 and Business 1000. We can switch your plan whenever you like.',
  },
];

/** About two dozen tickets over the year; the most recent ones still open in each status. */
export function demoTicketScripts(rng: DemoRandom, cast: TicketCustomer[], days: number): TicketStep[] {
  const steps: TicketStep[] = [];
  const finals: TicketStatus[] = [];
  // Older tickets end resolved or closed; the last five cover every status.
  for (let i = 0; i < 19; i++) finals.push(rng.chance(0.5) ? 'closed' : 'resolved');
  finals.push('open', 'open', 'in_progress', 'in_progress', 'waiting_customer', 'waiting_customer', 'resolved');
  let attachmentGiven = false;
  finals.forEach((final, i) => {
    const recent = i >= 19;
    const day = recent ? days - rng.int(0, 4) : rng.int(30, days - 14);
    // A customer who has had service for a while by then (and still has it).
    const candidates = cast.filter(
      (c) =>
        c.signupDay <= day - 5 &&
        (c.cancelDay === null || c.cancelDay > day) &&
        c.fate !== 'pending' &&
        c.fate !== 'cancelled_pending',
    );
    if (!candidates.length) return;
    const customer = rng.pick(candidates);
    const topic = TOPICS[rng.int(0, TOPICS.length - 1)];
    const technical = topic.category === 'technical' || topic.category === 'installation';
    const withAttachment = !attachmentGiven && topic.category === 'technical';
    if (withAttachment) attachmentGiven = true;
    let ticketId = '';
    const caller = () => ({ id: customer.id!, role: 'user' as Role });
    const minute = rng.int(0, 40);
    steps.push({
      day,
      minute,
      opens: true,
      async run({ services, attachment }) {
        const t = await services.tickets.create(
          caller(),
          ticketCreateSchema.parse({
            subject: topic.subject,
            description: topic.description,
            category: topic.category,
            priority: topic.priority,
          }),
        );
        ticketId = t.id;
        if (withAttachment) {
          async function* parts(): AsyncIterable<UploadPart> {
            yield {
              type: 'file',
              fieldname: 'files',
              filename: 'speedtest-evening.png',
              file: Readable.from([attachment]),
            };
          }
          await services.tickets.upload(caller(), ticketId, parts());
        }
      },
    });
    if (final === 'open') return;
    // Same day, a little later: assigned and answered.
    steps.push({
      day,
      minute: minute + 30,
      opens: false,
      async run({ services, support, technician }) {
        await services.tickets.assign(support, ticketId, technical ? technician.id : support.id);
        await services.tickets.addReply(support, ticketId, {
          message: 'Thank you for contacting us; we are looking into it and will get back to you shortly.',
          is_internal: false,
        });
        if (technical)
          await services.tickets.addReply(technician, ticketId, {
            message: 'Checked the line from the NAS: signal fine, looking at the port history.',
            is_internal: true,
          });
        // The reply left it waiting on the customer; staff say they are on it (an explicit status wins).
        await services.tickets.setStatus(support, ticketId, 'in_progress');
      },
    });
    if (final === 'in_progress') return;
    const later = Math.min(days, day + (recent ? 0 : rng.int(1, 3)));
    steps.push({
      day: later,
      minute: minute + 60,
      opens: false,
      async run({ services, support, technician }) {
        const by = technical ? technician : support;
        if (final === 'waiting_customer') {
          await services.tickets.addReply(by, ticketId, {
            message: 'Could you run a speed test with a cable and send us the result?',
            is_internal: false,
          });
          await services.tickets.setStatus(by, ticketId, 'waiting_customer');
          return;
        }
        await services.tickets.addReply(by, ticketId, { message: topic.answer, is_internal: false });
        await services.tickets.setStatus(by, ticketId, 'resolved');
      },
    });
    if (final === 'closed') {
      steps.push({
        day: Math.min(days, later + 1),
        minute: minute + 20,
        opens: false,
        async run({ services }) {
          await services.tickets.addReply(caller(), ticketId, {
            message: 'All good now, thank you!',
            is_internal: false,
          });
          await services.tickets.setStatus(caller(), ticketId, 'closed');
        },
      });
    }
  });
  return steps.sort((a, b) => a.day - b.day || a.minute - b.minute);
}
