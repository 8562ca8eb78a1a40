// pg-boss' Manager (its own module, without types): server/lib/jobs.ts handles the failures of the calls it does not await.
declare module 'pg-boss/src/manager.js' {
  const Manager: {
    prototype: Record<'complete' | 'fail', (...args: unknown[]) => Promise<unknown>>;
  };
  export default Manager;
}
