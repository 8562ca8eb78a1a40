/**
 * User management screens (issue 6). Spec §8's user error texts live in errors.ts (errors.users.*); the
 * success toasts are not in the spec and follow the other resources' wording.
 */
export const users: Record<string, string> = {
  'users.title': 'Users',
  'users.singular': 'User',

  'users.fields.name': 'Name',
  'users.fields.email': 'E-mail',
  'users.pendingEmail': 'Waiting for confirmation from {email}; the address above stays in use until then.',
  'users.fields.phone': 'Phone',
  'users.fields.customerNumber': 'Customer number',
  'users.fields.company': 'Company',
  'users.fields.role': 'Role',
  'users.fields.status': 'Status',
  'users.fields.createdAt': 'Created',
  'users.fields.address': 'Address',
  'users.fields.verified': 'E-mail verified',
  'users.fields.lastLogin': 'Last sign-in',
  'users.fields.password': 'Password',
  'users.fields.newPassword': 'New password',

  'users.status.active': 'Active',
  'users.status.suspended': 'Suspended',
  'users.status.disabled': 'Disabled',

  'users.filters.search': 'Name, e-mail, phone or customer number',
  'users.filters.role': 'Role',
  'users.filters.status': 'Status',
  'users.filters.company': 'Company',

  'users.actions.create': 'New user',
  'users.actions.edit': 'Edit',
  'users.actions.export': 'Export CSV',
  'users.actions.setStatus': 'Set {status}',
  'users.actions.resetPassword': 'Reset password',
  'users.actions.delete': 'Delete',
  'users.actions.close': 'Close',
  'users.actions.save': 'Save',

  'users.create.title': 'New user',
  'users.edit.title': 'Edit {name}',
  'users.status.confirm': 'Set {name} to {status}?',
  'users.status.confirmInactive':
    'Set {name} to {status}? They are signed out at once and cannot sign in until reactivated.',
  'users.password.title': 'Reset the password of {name}',
  'users.password.hint': 'The user is signed out everywhere and signs in with the new password.',
  'users.delete.confirm':
    'Delete {name}? Users with invoices or subscriptions cannot be deleted; disable them instead.',

  'users.detail.profile': 'Profile',
  'users.detail.subscriptions': 'Subscriptions',
  'users.detail.invoices': 'Invoices',
  'users.detail.tickets': 'Tickets',
  'users.detail.noSubscriptions': 'No subscriptions.',
  'users.detail.noInvoices': 'No invoices.',
  'users.detail.noTickets': 'No tickets opened by this user.',
  'users.detail.ticketSubject': 'Subject',
  'users.detail.ticketNumber': 'Number',

  'users.export.progress': 'Exporting {done} of {total}…',
  'users.export.done': 'Exported {count, plural, one {# user} other {# users}}',

  'users.toast.created': 'User created successfully',
  'users.toast.updated': 'User updated successfully',
  'users.toast.deleted': 'User deleted successfully',
  'users.toast.active': 'User activated successfully',
  'users.toast.suspended': 'User suspended successfully',
  'users.toast.disabled': 'User disabled successfully',
  'users.toast.password': 'User password reset successfully',
};
