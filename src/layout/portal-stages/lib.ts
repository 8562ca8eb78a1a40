/**
 * The portal shell's second stage: importing this evaluates the shell's other libraries (`portal-lib`,
 * vite.config.ts: Refine's core, TanStack Query and what they use) in a task of its own. See src/main.tsx.
 */
export { Refine } from '@refinedev/core';
