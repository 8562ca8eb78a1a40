import { useCan } from '@refinedev/core';

/**
 * Whether the signed-in role may do an action on a resource (false until the answer is known): Refine's useCan,
 * which the accessControlProvider (providers/access-control-provider.ts) answers from the role matrix — the
 * endpoint the action calls, as contract/resource-access.ts `actions` names it. For buttons that are not Refine's
 * own (those ask by themselves).
 */
export function useAllowed(resource: string, action: string): boolean {
  const { data } = useCan({ resource, action });
  return data?.can === true;
}
