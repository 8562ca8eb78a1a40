/**
 * Closing the HTTP server without dropping a request (issue 33). Node's server.close() stops listening and at once
 * destroys every connection it counts as idle — including one just accepted whose request is still on the wire, and
 * a kept-alive one whose next request is being sent: those requests were sent before the listener closed, and die
 * with a reset. Here a connection is closed only once it has been idle for `graceMs` after the listener closed;
 * a request arriving meanwhile is served (with Connection: close, set while draining) and its connection closes
 * after the answer. A new connection after the listener closed is refused at connect by the kernel.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** A turn of the event loop this short that accepted no connection is when the listener closes. */
const QUIET_TURN_MS = 2;
/** Longest wait for such a turn; after it the listener closes anyway. */
const QUIET_WAIT_MAX_MS = 1_000;

export interface ConnectionTracker {
  /**
   * Stops listening now, taking the connections the kernel has already completed first: closing a listening socket
   * resets every connection still in its accept queue — clients that connected and sent a request. The event loop
   * gets a turn to accept them (an I/O poll), then the listener closes in the same turn. Later calls of
   * server.close() (Fastify's, when the app closes) wait for the last connection, as Node's own would.
   */
  stopListening(): Promise<void>;
  /** From now on: Node's own close-idle step does nothing; each connection is ended once idle for graceMs. */
  closeIdleGently(graceMs: number): void;
}

export function trackConnections(server: Server): ConnectionTracker {
  const sockets = new Map<Socket, { active: number; idleSince: number }>();
  let accepted = 0;
  server.on('connection', (socket: Socket) => {
    accepted++;
    sockets.set(socket, { active: 0, idleSince: Date.now() });
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('request', (request, response) => {
    const state = sockets.get(request.socket);
    if (!state) return;
    state.active++;
    response.once('close', () => {
      state.active--;
      state.idleSince = Date.now();
    });
  });
  let timer: NodeJS.Timeout | null = null;
  const closed = new Promise<void>((resolve) =>
    server.once('close', () => {
      if (timer) clearInterval(timer);
      resolve();
    }),
  );
  let stopped: Promise<void> | null = null;
  return {
    stopListening() {
      stopped ??= (async () => {
        if (!server.listening) return;
        // Each turn of the event loop accepts what completed its handshake before its I/O poll. The listener closes
        // right after a quick turn (under QUIET_TURN_MS) that accepted nothing: the window in which a connection can
        // land in the queue unaccepted is then that short. (A busy turn — handlers running long — is waited out.)
        const until = Date.now() + QUIET_WAIT_MAX_MS;
        for (;;) {
          const before = accepted;
          const started = performance.now();
          await new Promise<void>((resolve) => setImmediate(resolve));
          if ((accepted === before && performance.now() - started < QUIET_TURN_MS) || Date.now() > until) break;
        }
        const close = server.close.bind(server);
        close();
        // Fastify's own close() later calls server.close(cb): cb when the last connection is gone (once).
        server.close = ((cb?: (error?: Error) => void) => {
          void closed.then(() => cb?.());
          return server;
        }) as typeof server.close;
      })();
      return stopped;
    },
    closeIdleGently(graceMs) {
      if (timer) return;
      server.closeIdleConnections = () => {};
      const sweep = () => {
        const now = Date.now();
        for (const [socket, state] of sockets) if (state.active === 0 && now - state.idleSince >= graceMs) socket.end();
      };
      timer = setInterval(sweep, Math.max(10, Math.min(100, graceMs / 5)));
      timer.unref();
    },
  };
}
