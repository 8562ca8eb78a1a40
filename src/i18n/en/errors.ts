/**
 * Spec §8 error texts: the fallbacks shown when the server sends no message of its own (the server's message
 * always comes first, 'Network error' when there is no response at all). Owned by the providers.
 *
 * Keys: errors.<group>.<operation>. The data provider derives <group> from the resource and <operation> from
 * the Refine method (list, one, create, update, delete) or a toggle (status); custom calls name theirs.
 * Texts marked "not in spec" fill a gap the spec leaves; everything else is verbatim.
 */
export const errors: Record<string, string> = {
  'errors.network': 'Network error',
  'errors.unknown': 'An unknown error occurred.',

  'errors.auth.login': 'Login failed. Please try again.',
  'errors.auth.register': 'Registration failed. Please try again.',
  'errors.auth.logout': 'Logout failed on server, but completed locally.',
  'errors.auth.resendVerification': 'Failed to resend verification email.',
  'errors.auth.verifyEmail': 'Email verification failed.',
  'errors.auth.noToken': 'No token found.',
  'errors.auth.fetchUser': 'Failed to fetch user data.',
  'errors.auth.refresh': 'Failed to refresh token.',
  'errors.auth.noSession': 'Not signed in.',
  'errors.auth.updateProfile': 'Failed to update user profile',
  'errors.auth.changePassword': 'Failed to change password', // not in spec
  'errors.auth.forgotPassword': 'Could not send the reset link. Please try again.', // not in spec
  'errors.auth.resetPassword': 'Could not reset the password. The link may have expired.', // not in spec

  'errors.plans.list': 'Failed to fetch plans',
  'errors.plans.one': 'Failed to fetch plan details',
  'errors.plans.create': 'Failed to create plan',
  'errors.plans.update': 'Failed to update plan',
  'errors.plans.delete': 'Failed to delete plan',
  'errors.plans.status': 'Failed to update plan status',

  'errors.gateways.list': 'Failed to fetch payment gateways',
  'errors.gateways.one': 'Failed to fetch payment gateway details',
  'errors.gateways.create': 'Failed to create payment gateway',
  'errors.gateways.update': 'Failed to update payment gateway',
  'errors.gateways.delete': 'Failed to delete payment gateway',
  'errors.gateways.status': 'Failed to update gateway status',

  'errors.dashboard.stats': 'Failed to fetch dashboard stats',

  'errors.contact.submit': 'Contact form submission failed. Please try again.',

  'errors.tickets.assigned': 'Failed to fetch assigned tickets',
  'errors.tickets.list': 'Failed to fetch tickets',
  'errors.tickets.one': 'Failed to fetch ticket',
  'errors.tickets.create': 'Failed to create ticket',
  'errors.tickets.update': 'Failed to update ticket',
  'errors.tickets.delete': 'Failed to delete ticket',
  'errors.tickets.stats': 'Failed to fetch stats',
  'errors.tickets.replies': 'Failed to fetch replies',
  'errors.tickets.reply': 'Failed to add reply',
  'errors.tickets.status': 'Failed to change status',
  'errors.tickets.assign': 'Failed to assign ticket',
  'errors.tickets.attachments': 'Failed to fetch attachments',
  'errors.tickets.attachment': 'Failed to add attachment',

  'errors.invoices.initiatePayment': 'Failed to initiate payment',
  'errors.invoices.one': 'Failed to fetch invoice',
  'errors.invoices.paymentStatus': 'Failed to check payment status',
  'errors.invoices.list': 'Failed to fetch invoices',
  'errors.invoices.delete': 'Failed to delete invoice',
  'errors.invoices.userList': 'Failed to fetch user invoices',
  'errors.invoices.noId': 'No invoice ID provided',

  'errors.subscriptions.create': 'Failed to create subscription',
  'errors.subscriptions.activePlan': 'Failed to fetch active plan',
  'errors.subscriptions.orders': 'Failed to fetch order history',
  'errors.subscriptions.list': 'Failed to fetch subscriptions',
  'errors.subscriptions.one': 'Failed to fetch subscription details',
  'errors.subscriptions.update': 'Failed to update subscription', // not in spec
  'errors.subscriptions.status': 'Failed to update subscription status', // not in spec
  'errors.subscriptions.upgrade': 'Failed to upgrade subscription',
  'errors.subscriptions.renew': 'Failed to renew subscription',
  'errors.subscriptions.cancel': 'Failed to cancel subscription',
  'errors.subscriptions.delete': 'Failed to delete subscription',

  'errors.users.one': 'Failed to fetch user',
  'errors.users.list': 'Failed to fetch users',
  'errors.users.update': 'Failed to update user profile',
  'errors.users.create': 'Failed to create user',
  'errors.users.delete': 'Failed to delete user',
  'errors.users.status': 'Failed to update user status',
  'errors.users.password': 'Failed to reset user password',
};

/** The fallback key for a resource group and operation, e.g. errorKey('plans', 'create'). */
export function errorKey(group: string, operation: string): string {
  return `errors.${group}.${operation}`;
}
