import type { ResourceAccess } from '../../contract/roles';

/**
 * The role-matrix entry of the fixture resource the issue-20 tests declare only inside themselves (never shipped):
 * admin and support read, admin alone writes. The server test (tests/server/crud-module.test.ts) serves it with a
 * crudModule, the web test (tests/web/declared-resource.test.tsx) declares its pages.
 */
export const FIXTURE_NOTES_ACCESS: ResourceAccess = {
  route: '/dashboard/fixture-notes',
  api: '/fixture-notes',
  list: ['admin', 'support'],
  show: ['admin', 'support'],
  create: ['admin'],
  update: ['admin'],
  delete: ['admin'],
};
