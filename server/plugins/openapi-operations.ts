/**
 * What the OpenAPI document says of operations beyond their zod schemas (see ./openapi.ts): the one-line summary of
 * each operation, the description of each tag, and the answers that are not JSON. Keyed "METHOD /path" as in the role
 * matrix (contract/roles.ts), the path under /api.
 *
 * A route may give its own `summary` in its schema (crudModule's routes do, from the resource's name); the others
 * are named here. A route with neither fails `redocly lint` (operation-summary) in tests/server/openapi.test.ts, and
 * an entry here naming no route fails there too.
 */

export const SUMMARIES: Record<string, string> = {
  'GET /health': 'Check that the API and its database answer',
  'GET /health/live': 'Liveness: the process serves HTTP',
  'GET /health/ready': 'Readiness: database, migrations and change feed are ready for traffic',

  'POST /auth/login': 'Sign in with e-mail and password',
  'POST /auth/register': 'Register a customer account',
  'POST /auth/refresh-token': 'Get a new access token from the refresh cookie',
  'POST /auth/logout': 'Sign out (end the session and its access tokens)',
  'GET /auth/profile': "Get the signed-in user's profile",
  'PUT /auth/profile': "Update the signed-in user's profile",
  'POST /auth/confirm-email': 'Confirm a new e-mail address with its token',
  'POST /auth/change-password': "Change the signed-in user's password",
  'GET /auth/verify-email': 'Verify an e-mail address with its token',
  'POST /auth/resend-verification': 'Send the verification e-mail again',
  'POST /auth/forgot-password': 'Send a password-reset e-mail',
  'POST /auth/reset-password': 'Set a new password with a reset token',

  'GET /mail/outbox': 'List the mail outbox',

  'POST /subscriptions': 'Subscribe a customer to a plan',
  'GET /subscriptions': 'List subscriptions',
  'GET /subscriptions/active-plan': "Get the signed-in customer's active plan",
  'GET /subscriptions/orders': "List the signed-in customer's orders",
  'PATCH /subscriptions/:id/status': "Change a subscription's status",
  'POST /subscriptions/:id/cancel': 'Cancel a subscription',
  'PATCH /subscriptions/:id/renew': 'Renew a subscription',
  'PATCH /subscriptions/:id/upgrade': 'Move a subscription to another plan',
  'DELETE /subscriptions/:id': 'Delete a subscription',
  'GET /subscriptions/:id': 'Get a subscription',
  'GET /subscriptions/:id/credentials': "Get a subscription's connection credentials",
  'GET /subscriptions/:id/address': "Get a subscription's IP address",
  'PUT /subscriptions/:id/address': 'Assign a fixed IP address to a subscription',
  'DELETE /subscriptions/:id/address': "Release a subscription's fixed IP address",
  'GET /subscriptions/:id/autopay': "Get a subscription's automatic payment",
  'PATCH /subscriptions/:id/autopay': 'Turn automatic payment on or off',
  'POST /subscriptions/:id/autopay/setup': 'Start saving a card for automatic payment',

  'GET /payments/invoices': 'List invoices',
  'GET /payments/user/invoices': "List the signed-in customer's invoices",
  'GET /payments/invoices/:id': 'Get an invoice',
  'DELETE /payments/invoices/:id': 'Delete an invoice',
  'GET /payments/invoices/:id/pdf': 'Download an invoice as PDF',
  'GET /payments/invoices/:id/payments': "List an invoice's payments",
  'POST /payments/invoices/:id/manual': 'Record a payment made outside the portal (cash, bank transfer)',
  'GET /payments': 'List payments',
  'POST /payments/initiate': 'Start paying an invoice',
  'GET /payments/status/:id': "Get a payment's status",
  'POST /payments/:id/refund': 'Refund a payment',
  'POST /payments/webhooks/:provider': "Receive a payment provider's webhook",
  'GET /payments/sandbox/checkout/:transactionId': "The Sandbox provider's checkout page",
  'POST /payments/sandbox/checkout/:transactionId/approve': 'Approve a Sandbox checkout',
  'POST /payments/sandbox/checkout/:transactionId/decline': 'Decline a Sandbox checkout',
  'GET /payments/sandbox/setup/:transactionId': "The Sandbox provider's card set-up page",
  'POST /payments/sandbox/setup/:transactionId/:choice': 'Approve or decline a Sandbox card set-up',
  'GET /payments/methods': 'List saved payment methods',
  'DELETE /payments/methods/:id': 'Remove a saved payment method',

  'POST /billing/run': 'Run billing now',
  'GET /billing/runs': 'List billing runs',
  'GET /billing/reconciliation': 'Reconcile payments with invoices over a period',
  'GET /billing/reconciliation/export.csv': 'Export the reconciliation as CSV',

  'GET /tickets': 'List support tickets',
  'POST /tickets': 'Open a support ticket',
  'GET /tickets/assigned': 'List the tickets assigned to the signed-in staff member',
  'GET /tickets/stats': 'Count tickets by status and priority',
  'GET /tickets/:id': 'Get a ticket',
  'PUT /tickets/:id': 'Update a ticket',
  'DELETE /tickets/:id': 'Delete a ticket',
  'GET /tickets/:id/replies': "List a ticket's replies",
  'POST /tickets/:id/replies': 'Reply to a ticket',
  'PATCH /tickets/:id/status': "Change a ticket's status",
  'PATCH /tickets/:id/assign': 'Assign a ticket to a staff member',
  'GET /tickets/:id/attachments': "List a ticket's attachments",
  'POST /tickets/:id/attachments': 'Attach a file to a ticket',
  'GET /tickets/:id/attachments/:attachmentId/download': 'Download a ticket attachment',

  'GET /users': 'List users',
  'POST /users': 'Create a user',
  'GET /users/companies': "List customers' company names",
  'GET /users/export.csv': 'Export users as CSV',
  'GET /users/:id': 'Get a user',
  'PUT /users/:id': 'Update a user',
  'DELETE /users/:id': 'Delete a user',
  'PATCH /users/:id/status': "Change a user's status",
  'PATCH /users/:id/password': "Set a user's password",
  'GET /credit': "List the signed-in customer's credit movements",
  'GET /users/:id/credit': "List a customer's credit movements",
  'POST /users/:id/credit': "Adjust a customer's credit",

  'GET /devices': 'List network devices',
  'POST /devices': 'Add a network device',
  'POST /devices/test-connection': 'Test connecting to a device before adding it',
  'GET /devices/:id': 'Get a device',
  'PUT /devices/:id': 'Update a device',
  'DELETE /devices/:id': 'Delete a device',
  'POST /devices/:id/test-connection': 'Test connecting to a device',
  'GET /devices/:id/config': "Get a device's running configuration",
  'POST /devices/:id/backups': "Back up a device's configuration now",
  'GET /devices/:id/backups': "List a device's configuration backups",
  'GET /devices/:id/backups/diff': 'Compare two configuration backups',
  'GET /devices/:id/backups/:backupId': 'Get a configuration backup',
  'GET /devices/:id/backups/:backupId/download': 'Download a configuration backup',
  'GET /devices/:id/backup-jobs': "List a device's backup jobs",
  'GET /device-jobs/:jobId': 'Get a device job',
  'GET /devices/:id/interfaces': "List a device's interfaces",
  'GET /devices/:id/interfaces/:interfaceId/traffic': "Get an interface's traffic",
  'POST /devices/:id/poll': 'Poll a device now',

  'GET /dashboard/stats': 'Get the dashboard figures',

  'GET /installations': 'List installations',
  'POST /installations': 'Schedule an installation',
  'GET /installations/:id': 'Get an installation',
  'PUT /installations/:id': 'Update an installation',
  'PATCH /installations/:id': 'Update some fields of an installation',
  'PATCH /installations/:id/status': "Change an installation's status",
  'PATCH /installations/:id/assign': 'Assign an installation to a technician',
  'GET /installations/:id/photos': "List an installation's photos",
  'POST /installations/:id/photos': 'Add a photo to an installation',
  'GET /installations/:id/photos/:photoId/download': 'Download an installation photo',

  'GET /usage': 'Get data usage',
  'GET /usage/customers': "List customers' data usage",
  'GET /me/home': "Get the signed-in customer's home page",
  'GET /me/top-up-packages': 'List the fair-use top-up packages on sale',
  'POST /me/subscriptions/:id/top-ups': 'Buy a fair-use top-up for a subscription (a pending top-up and its invoice)',
  'GET /me/message-preferences': "Get the signed-in customer's message channels and choices",
  'PUT /me/message-preferences': "Save the signed-in customer's message choices (channel × category)",
  'POST /me/phone-verification': "Send a verification code to the customer's phone number",
  'POST /me/phone-verification/confirm': "Confirm the customer's phone number with the code",
  'GET /messaging/messages': 'List the messages sent to customers (the message log)',
  'GET /messaging/providers': 'List SMS and WhatsApp providers',
  'POST /messaging/providers': 'Add an SMS or WhatsApp provider',
  'GET /messaging/providers/:id': 'Get a message provider',
  'PUT /messaging/providers/:id': 'Update a message provider',
  'DELETE /messaging/providers/:id': 'Delete a message provider',
  'POST /messaging/providers/:id/test': 'Send a test message through a provider',
  'POST /messaging/callbacks/twilio/:providerId': "Twilio's delivery status callback (signed)",
  'POST /messaging/callbacks/twilio/:providerId/inbound':
    'Incoming SMS or WhatsApp through Twilio (STOP, START; signed)',
  'GET /messaging/callbacks/whatsapp/:providerId': "WhatsApp Cloud API's webhook verification (hub.challenge)",
  'POST /messaging/callbacks/whatsapp/:providerId':
    "WhatsApp Cloud API's webhook: statuses and incoming messages (signed)",
  'POST /messaging/callbacks/webhook/:providerId':
    "A webhook gateway's delivery report or incoming message (callback token)",

  'GET /ipam/networks': 'List IP networks',
  'GET /exports/libreqos/shaped-devices.csv': "Export LibreQoS's ShapedDevices.csv",
  'GET /exports/libreqos/network.json': "Export LibreQoS's network.json",
  'POST /ipam/networks': 'Add an IP network',
  'GET /ipam/networks/:id': 'Get an IP network',
  'PUT /ipam/networks/:id': 'Update an IP network',
  'DELETE /ipam/networks/:id': 'Delete an IP network',
  'GET /ipam/networks/:id/addresses': "List an IP network's addresses",
  'GET /ipam/history': 'Who held an IP address, and when',

  'POST /contact': 'Send a message to the ISP',
  'GET /settings/public': 'Get the public settings (name, contact, logo)',
  'GET /settings/policies/:type': 'Get a policy page (privacy, terms, refund)',
  'GET /settings': 'Get all settings',
  'PUT /settings': 'Update settings',
  'POST /settings/logo': 'Upload the logo',
  'GET /settings/logo': 'Get the logo image',
  'POST /settings/test-email': 'Send a test e-mail',

  'GET /backups': 'List database backups',
  'POST /backups': 'Back up the database now',
  'GET /backups/:name/download': 'Download a database backup',
  'GET /audit': 'List the audit trail (or export it as CSV)',
  'GET /audit/:id': 'Get an audit event',
  'GET /jobs': 'List background jobs',
  'GET /system/notices': 'Get the notices shown to staff',
  'GET /system': 'Get the system status',

  'GET /api-tokens': "List the signed-in user's API tokens",
  'POST /api-tokens': 'Create an API token',
  'DELETE /api-tokens/:id': 'Revoke an API token',

  'POST /vouchers/batches': 'Generate a batch of vouchers',
  'GET /vouchers/batches': 'List voucher batches',
  'GET /vouchers/batches/:id': 'Get a voucher batch',
  'GET /vouchers/batches/:id/vouchers': "List a batch's vouchers",
  'GET /vouchers/batches/:id/codes.csv': "Export a batch's codes as CSV",
  'GET /vouchers/batches/:id/cards.pdf': "Print a batch's cards as PDF",
  'POST /vouchers/batches/:id/revoke': 'Revoke every unused voucher of a batch',
  'POST /vouchers/:id/revoke': 'Revoke a voucher',
  'POST /vouchers/redeem': 'Redeem a voucher',

  'GET /bulk-messages/preview': 'Count the customers a segment reaches',
  'GET /bulk-messages/segments': 'List the plans, NAS devices and areas to send to',
  'POST /bulk-messages': 'Send a message to a segment of customers',
  'GET /status': 'Current, upcoming and recent outages and maintenance by area (the public status page)',
  'POST /incidents/:id/resolve': 'Resolve an incident; the customers it reached are told it is over',
  'GET /bulk-messages': 'List bulk messages',
  'GET /bulk-messages/:id': 'Get a bulk message',
  'GET /bulk-messages/:id/messages': "List a bulk message's messages",
  'POST /bulk-messages/:id/cancel': 'Cancel a bulk message being sent',
};

/**
 * The operationId of each operation whose name the CRUD rule of operationIdOf (./openapi.ts) would not make well:
 * a readable verb and noun, camelCase ("refundPayment", "getTicketStats"). Keyed "METHOD /path" as SUMMARIES. An id
 * is part of the API's contract for generated clients: change one only on purpose (tests/server/openapi-operation-ids
 * .test.ts pins them all); an entry naming no route fails tests/server/openapi.test.ts.
 */
export const OPERATION_IDS: Record<string, string> = {
  'GET /health': 'getHealth',
  'GET /health/live': 'getLiveness',
  'GET /health/ready': 'getReadiness',

  'POST /auth/login': 'login',
  'POST /auth/register': 'register',
  'POST /auth/refresh-token': 'refreshAccessToken',
  'POST /auth/logout': 'logout',
  'GET /auth/profile': 'getProfile',
  'PUT /auth/profile': 'updateProfile',
  'POST /auth/confirm-email': 'confirmEmailChange',
  'POST /auth/change-password': 'changePassword',
  'GET /auth/verify-email': 'verifyEmail',
  'POST /auth/resend-verification': 'resendVerificationEmail',
  'POST /auth/forgot-password': 'requestPasswordReset',
  'POST /auth/reset-password': 'resetPassword',

  'GET /mail/outbox': 'listOutboxMessages',

  'GET /payments/gateways': 'listPaymentGateways',
  'POST /payments/gateways': 'createPaymentGateway',
  'GET /payments/gateways/:id': 'getPaymentGateway',
  'PUT /payments/gateways/:id': 'updatePaymentGateway',
  'DELETE /payments/gateways/:id': 'deletePaymentGateway',

  'GET /subscriptions/active-plan': 'getMyActivePlan',
  'GET /subscriptions/orders': 'listMyOrders',
  'PATCH /subscriptions/:id/status': 'changeSubscriptionStatus',
  'POST /subscriptions/:id/cancel': 'cancelSubscription',
  'PATCH /subscriptions/:id/renew': 'renewSubscription',
  'PATCH /subscriptions/:id/upgrade': 'upgradeSubscription',
  'GET /subscriptions/:id/credentials': 'getSubscriptionCredentials',
  'GET /subscriptions/:id/address': 'getSubscriptionAddress',
  'PUT /subscriptions/:id/address': 'assignSubscriptionAddress',
  'DELETE /subscriptions/:id/address': 'releaseSubscriptionAddress',
  'GET /subscriptions/:id/autopay': 'getSubscriptionAutopay',
  'PATCH /subscriptions/:id/autopay': 'setSubscriptionAutopay',
  'POST /subscriptions/:id/autopay/setup': 'startAutopaySetup',

  'GET /payments/invoices': 'listInvoices',
  'GET /payments/user/invoices': 'listMyInvoices',
  'GET /payments/invoices/:id': 'getInvoice',
  'DELETE /payments/invoices/:id': 'deleteInvoice',
  'GET /payments/invoices/:id/pdf': 'downloadInvoicePdf',
  'GET /payments/invoices/:id/payments': 'listInvoicePayments',
  'POST /payments/invoices/:id/manual': 'recordManualPayment',
  'POST /payments/initiate': 'initiatePayment',
  'GET /payments/status/:id': 'getPaymentStatus',
  'POST /payments/:id/refund': 'refundPayment',
  'POST /payments/webhooks/:provider': 'receivePaymentWebhook',
  'GET /payments/sandbox/checkout/:transactionId': 'getSandboxCheckoutPage',
  'POST /payments/sandbox/checkout/:transactionId/approve': 'approveSandboxCheckout',
  'POST /payments/sandbox/checkout/:transactionId/decline': 'declineSandboxCheckout',
  'GET /payments/sandbox/setup/:transactionId': 'getSandboxSetupPage',
  'POST /payments/sandbox/setup/:transactionId/:choice': 'completeSandboxSetup',
  'GET /payments/methods': 'listPaymentMethods',
  'DELETE /payments/methods/:id': 'deletePaymentMethod',

  'POST /billing/run': 'runBilling',
  'GET /billing/runs': 'listBillingRuns',
  'GET /billing/reconciliation': 'getReconciliation',
  'GET /billing/reconciliation/export.csv': 'exportReconciliationCsv',

  'GET /tickets/assigned': 'listAssignedTickets',
  'GET /tickets/stats': 'getTicketStats',
  'GET /tickets/:id/replies': 'listTicketReplies',
  'POST /tickets/:id/replies': 'replyToTicket',
  'PATCH /tickets/:id/status': 'changeTicketStatus',
  'PATCH /tickets/:id/assign': 'assignTicket',
  'GET /tickets/:id/attachments': 'listTicketAttachments',
  'POST /tickets/:id/attachments': 'uploadTicketAttachment',
  'GET /tickets/:id/attachments/:attachmentId/download': 'downloadTicketAttachment',

  'GET /users/companies': 'listCompanies',
  'GET /users/export.csv': 'exportUsersCsv',
  'PATCH /users/:id/status': 'changeUserStatus',
  'PATCH /users/:id/password': 'setUserPassword',
  'GET /credit': 'listMyCredit',
  'GET /users/:id/credit': 'listUserCredit',
  'POST /users/:id/credit': 'adjustUserCredit',

  'POST /devices/test-connection': 'testNewDeviceConnection',
  'POST /devices/:id/test-connection': 'testDeviceConnection',
  'GET /devices/:id/config': 'getDeviceConfig',
  'POST /devices/:id/backups': 'backUpDevice',
  'GET /devices/:id/backups': 'listDeviceBackups',
  'GET /devices/:id/backups/diff': 'diffDeviceBackups',
  'GET /devices/:id/backups/:backupId': 'getDeviceBackup',
  'GET /devices/:id/backups/:backupId/download': 'downloadDeviceBackup',
  'GET /devices/:id/backup-jobs': 'listDeviceBackupJobs',
  'GET /device-jobs/:jobId': 'getDeviceJob',
  'GET /devices/:id/interfaces': 'listDeviceInterfaces',
  'GET /devices/:id/interfaces/:interfaceId/traffic': 'getInterfaceTraffic',
  'POST /devices/:id/poll': 'pollDevice',

  'GET /dashboard/stats': 'getDashboardStats',

  'PATCH /installations/:id': 'updateInstallationFields',
  'PATCH /installations/:id/status': 'changeInstallationStatus',
  'PATCH /installations/:id/assign': 'assignInstallation',
  'GET /installations/:id/photos': 'listInstallationPhotos',
  'POST /installations/:id/photos': 'uploadInstallationPhoto',
  'GET /installations/:id/photos/:photoId/download': 'downloadInstallationPhoto',

  'GET /usage': 'getUsage',
  'GET /usage/customers': 'listCustomerUsage',
  'GET /me/home': 'getMyHome',

  'GET /ipam/networks': 'listIpNetworks',
  'POST /ipam/networks': 'createIpNetwork',
  'GET /ipam/networks/:id': 'getIpNetwork',
  'PUT /ipam/networks/:id': 'updateIpNetwork',
  'DELETE /ipam/networks/:id': 'deleteIpNetwork',
  'GET /ipam/networks/:id/addresses': 'listIpNetworkAddresses',
  'GET /ipam/history': 'getIpAddressHistory',
  'GET /exports/libreqos/shaped-devices.csv': 'exportLibreqosShapedDevices',
  'GET /exports/libreqos/network.json': 'exportLibreqosNetwork',

  'POST /contact': 'sendContactMessage',
  'GET /settings/public': 'getPublicSettings',
  'GET /settings/policies/:type': 'getPolicy',
  'GET /settings': 'getSettings',
  'PUT /settings': 'updateSettings',
  'POST /settings/logo': 'uploadLogo',
  'GET /settings/logo': 'getLogo',
  'POST /settings/test-email': 'sendTestEmail',

  'GET /backups/:name/download': 'downloadBackup',
  'GET /audit': 'listAuditEvents',
  'GET /audit/:id': 'getAuditEvent',
  'GET /system/notices': 'getSystemNotices',
  'GET /system': 'getSystemStatus',

  'DELETE /api-tokens/:id': 'revokeApiToken',

  'POST /vouchers/batches': 'createVoucherBatch',
  'GET /vouchers/batches': 'listVoucherBatches',
  'GET /vouchers/batches/:id': 'getVoucherBatch',
  'GET /vouchers/batches/:id/vouchers': 'listBatchVouchers',
  'GET /vouchers/batches/:id/codes.csv': 'exportVoucherCodesCsv',
  'GET /vouchers/batches/:id/cards.pdf': 'downloadVoucherCardsPdf',
  'GET /bulk-messages/preview': 'previewBulkMessage',
  'GET /bulk-messages/segments': 'listBulkMessageSegments',
  'GET /bulk-messages/:id/messages': 'listBulkMessageMessages',
  'POST /bulk-messages/:id/cancel': 'cancelBulkMessage',
  'POST /vouchers/batches/:id/revoke': 'revokeVoucherBatch',
  'POST /vouchers/:id/revoke': 'revokeVoucher',
  'POST /vouchers/redeem': 'redeemVoucher',
};

/** Each tag (the first segment of an operation's path) and what its operations are about. */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  health: 'Health checks for load balancers and monitoring.',
  auth: 'Sign-in, sessions, registration, e-mail verification and passwords.',
  mail: 'The mail outbox (e-mail the portal sent or will send).',
  plans: 'Service plans: price, speed, billing cycle.',
  payments: 'Invoices, payments, refunds, gateways, saved payment methods and provider webhooks.',
  'contact-messages': 'Messages sent through the public contact form.',
  subscriptions: "Customers' subscriptions to plans, their credentials, IP address and automatic payment.",
  billing: 'Billing runs and the reconciliation of payments with invoices.',
  tickets: 'Support tickets, their replies and attachments.',
  users: 'Customer and staff accounts, and customer credit.',
  credit: "The signed-in customer's credit balance and movements.",
  devices: 'Network devices (routers, switches): connection, configuration backups, interfaces and traffic.',
  'device-jobs': 'Jobs run on network devices (backups, polls).',
  dashboard: 'Figures for the back-office dashboard.',
  installations: 'Installation appointments, their technicians and photos.',
  usage: 'Data usage by customer and subscription.',
  'top-up-packages': 'Fair-use top-up packages: extra data or full speed for the rest of a billing cycle.',
  me: "The signed-in customer's own pages.",
  messaging: "SMS and WhatsApp providers, the message log and the providers' signed callbacks.",
  ipam: 'IP address management: networks, addresses and who held them.',
  exports: "Files for other systems: LibreQoS's ShapedDevices.csv and network.json.",
  contact: 'The public contact form.',
  settings: 'Portal settings, logo and policy pages.',
  backups: 'Database backups.',
  audit: 'The audit trail of every change.',
  jobs: 'The background job queue.',
  system: 'System status and notices for staff.',
  'api-tokens': 'Personal API tokens for integrations.',
  vouchers: 'Prepaid vouchers: batches, codes, printed cards and redemption.',
  incidents: 'Outages and maintenance windows, the customers they reach and the messages when they start and end.',
  status: 'The public status page: current incidents by area, upcoming maintenance, recently resolved.',
  'bulk-messages': 'Messages from staff to a segment of customers (a plan, a NAS, an area, unpaid, all).',
};

/**
 * Answers that are not JSON, by operation and status: a media type and what it holds. Everything else answers
 * JSON in the envelope, as its route's response schema says.
 */
export const OTHER_CONTENT: Record<
  string,
  Record<string, Record<string, { schema: Record<string, unknown> }>>
> = (() => {
  const text = (type: string, description: string) => ({ [type]: { schema: { type: 'string', description } } });
  const binary = (type: string, description: string) => ({
    [type]: { schema: { type: 'string', format: 'binary', description } },
  });
  const html = text('text/html', 'A page for a person, in their browser.');
  const page = { 200: html, 404: text('text/html', 'A page saying the checkout is unknown or no longer open.') };
  return {
    'GET /payments/invoices/:id/pdf': { 200: binary('application/pdf', 'The invoice.') },
    // Meta checks that the webhook echoes hub.challenge as the bare body.
    'GET /messaging/callbacks/whatsapp/:providerId': { 200: text('text/plain', 'The hub.challenge sent.') },
    'GET /payments/sandbox/checkout/:transactionId': page,
    'POST /payments/sandbox/checkout/:transactionId/approve': page,
    'POST /payments/sandbox/checkout/:transactionId/decline': page,
    'GET /payments/sandbox/setup/:transactionId': page,
    'POST /payments/sandbox/setup/:transactionId/:choice': page,
    'GET /billing/reconciliation/export.csv': {
      200: text('text/csv', 'One line per invoice and payment of the period.'),
    },
    'GET /users/export.csv': { 200: text('text/csv', 'One line per user.') },
    'GET /audit': { 200: text('text/csv', 'With `format=csv`: one line per event, newest first (at most 50,000).') },
    'GET /vouchers/batches/:id/codes.csv': { 200: text('text/csv', 'One line per voucher code.') },
    'GET /vouchers/batches/:id/cards.pdf': { 200: binary('application/pdf', 'Printable voucher cards.') },
    'GET /tickets/:id/attachments/:attachmentId/download': {
      200: binary('*/*', 'The file, with the media type it was uploaded as (an image, a PDF, text, ...).'),
    },
    'GET /installations/:id/photos/:photoId/download': { 200: binary('image/*', 'The photo.') },
    'GET /devices/:id/backups/:backupId/download': {
      200: binary('text/plain', 'The configuration as the device exported it.'),
    },
    'GET /backups/:name/download': { 200: binary('application/gzip', 'The database dump, compressed.') },
    'GET /settings/logo': { 200: binary('image/*', 'The logo.') },
    'GET /exports/libreqos/shaped-devices.csv': {
      200: text('text/csv', "LibreQoS's ShapedDevices.csv: one circuit per subscription in service."),
    },
    'GET /exports/libreqos/network.json': {
      200: {
        'application/json': {
          schema: {
            type: 'object',
            description:
              "LibreQoS's network.json: sites and NAS devices by node name, NAS devices as a site's children.",
            additionalProperties: {
              type: 'object',
              required: ['id', 'downloadBandwidthMbps', 'uploadBandwidthMbps', 'type'],
              properties: {
                id: {
                  type: 'string',
                  description: 'Stable id: portal:site:…, portal:nas:<device id>, portal:generated:…',
                },
                downloadBandwidthMbps: { type: 'number' },
                uploadBandwidthMbps: { type: 'number' },
                type: { type: 'string', enum: ['site', 'ap'] },
                children: {
                  type: 'object',
                  description: 'The NAS devices of a site, by node name (nodes as above, without children).',
                  additionalProperties: { type: 'object' },
                },
              },
            },
          },
        },
      },
    },
  };
})();

const at = '2026-01-15T09:30:00.000Z';
const plan = {
  id: '9e5b2e89-2b5c-4be9-86d9-85a7f57eec17',
  name: 'Basic 25',
  slug: 'basic-25',
  description: 'Everyday browsing, e-mail and HD streaming on one screen.',
  download_mbps: 25,
  upload_mbps: 5,
  data_cap_gb: 500,
  price: 1999,
  setup_fee: 2500,
  currency: 'USD',
  billing_cycle: 'monthly',
  features: ['Free Wi-Fi router', 'E-mail support'],
  is_featured: false,
  sort_order: 10,
  status: 'active',
  created_at: at,
  updated_at: at,
  data_cap_action: 'reject',
  throttle_download_kbps: null,
  throttle_upload_kbps: null,
  requires_installation: false,
};
const customer = {
  id: 'ac367906-b268-4965-8e28-1f78afb8024f',
  name: 'Casey Customer',
  email: 'customer@isp.example',
  phone: '+1 555 0100',
  address: '1 Fiber Way, Springfield',
  company: null,
  role: 'user',
  status: 'active',
  isVerified: true,
  created_at: at,
  updated_at: at,
  last_login_at: at,
  pending_email: null,
};
const ticket = {
  id: '78e71c09-fd2a-4a92-8aa7-34c684153995',
  number: 'T-000002',
  subject: 'Question about my first invoice',
  description: 'My first invoice includes a setup fee. Is it charged only once?',
  category: 'billing',
  priority: 'normal',
  status: 'open',
  created_by: customer.id,
  created_by_name: customer.name,
  created_by_email: customer.email,
  assigned_to: null,
  assigned_to_name: null,
  subscription_id: null,
  created_at: at,
  updated_at: at,
  resolved_at: null,
  last_reply_at: null,
  first_response_at: null,
};
const page = (items: unknown[]) => ({
  items,
  pagination: { page: 1, totalPages: 3, total: 3 * items.length, hasNext: true, hasPrev: false },
});

/**
 * Examples of the main resources' answers, by operation and status (the JSON body). redocly lint checks each against
 * its schema (no-invalid-media-type-examples), so an example cannot go stale unnoticed.
 */
export const EXAMPLES: Record<string, Record<string, unknown>> = {
  'GET /plans': { 200: { success: true, message: 'Plans retrieved successfully', data: page([plan]) } },
  'GET /plans/:id': { 200: { success: true, message: 'Plan retrieved successfully', data: plan } },
  'POST /plans': { 201: { success: true, message: 'Plan created successfully', data: plan } },
  'POST /auth/login': {
    200: {
      success: true,
      message: 'Login successful',
      data: {
        user: customer,
        tokens: {
          access: {
            token: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIuLi4ifQ.signature',
            expires: '2026-01-15T09:45:00.000Z',
          },
        },
      },
    },
  },
  'GET /users/:id': {
    200: { success: true, message: 'User retrieved successfully', data: { ...customer, customer_number: 'C-000042' } },
  },
  'GET /tickets': { 200: { success: true, message: 'Tickets retrieved successfully', data: page([ticket]) } },
  'GET /tickets/:id': {
    200: { success: true, message: 'Ticket retrieved successfully', data: { ...ticket, replies: [], attachments: [] } },
  },
};

/** Examples of the shared failures (components.responses). */
export const FAILURE_EXAMPLES: Record<string, unknown> = {
  ValidationFailed: {
    success: false,
    message: 'Validation failed: price is required',
    errors: [{ field: 'price', message: 'price is required' }],
  },
  Unauthorized: { success: false, message: 'Authentication required' },
  Forbidden: { success: false, message: 'You do not have permission to perform this action' },
  NotFound: { success: false, message: 'Plan not found' },
  TooManyRequests: { success: false, message: 'Too many requests. Please try again later.' },
};
