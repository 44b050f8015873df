// A view of a router whose write routes (every method but GET) mark the state as changed
// after they run, so that --state saves them (debounced; see Persister).
import type { SandboxContext } from './context.js';
import type { Router } from './router.js';

export function persistingWrites(router: Router, ctx: SandboxContext): Router {
  const view = Object.create(router) as Router;
  view.add = (method, pattern, handler) => {
    router.add(
      method,
      pattern,
      method.toUpperCase() === 'GET'
        ? handler
        : async (req) => {
            try {
              return await handler(req);
            } finally {
              ctx.persister.changed();
            }
          },
    );
    return view;
  };
  return view;
}
