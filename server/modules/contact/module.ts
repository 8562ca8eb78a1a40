/**
 * /api/contact-messages on the CRUD factory: admin and support read the public form's messages (newest first,
 * filtered by status, searched by name, e-mail and subject) and mark them handled (who and when) or new again.
 */
import { contactListQuerySchema, contactMessageSchema, contactUpdateSchema } from '../../../contract/schemas/contact';
import { crudModule } from '../../crud/crud-module';
import { contactMessages } from '../../db/schema';
import { CONTACT_MESSAGES } from './routes';

export default crudModule({
  name: 'contact-messages',
  table: contactMessages,
  // Messages are created by the public form (POST /contact, routes.ts), never through this resource.
  schemas: {
    record: contactMessageSchema,
    input: contactUpdateSchema,
    update: contactUpdateSchema,
    listQuery: contactListQuerySchema,
  },
  label: 'Contact message',
  messages: { list: CONTACT_MESSAGES.list, updated: CONTACT_MESSAGES.updated, notFound: CONTACT_MESSAGES.notFound },
  search: ['name', 'email', 'subject'],
  filters: ['status'],
  defaultSort: { field: 'created_at', order: 'desc' },
  audit: { targetType: 'contact_message' },
  hooks: {
    beforeUpdate: (_before, values, input, { request, clock }) => {
      const handled = input.status === 'handled';
      return { ...values, handledBy: handled ? request.user!.id : null, handledAt: handled ? clock.now() : null };
    },
  },
});
