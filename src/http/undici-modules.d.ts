// Types of the undici modules transport.ts loads one by one, as the package's own types
// describe them (its entry point, which would bring them, also builds what this CLI never
// uses: see transport.ts).
declare module 'undici/lib/dispatcher/agent.js' {
  import { Agent } from 'undici';
  export default Agent;
}
declare module 'undici/lib/dispatcher/proxy-agent.js' {
  import { ProxyAgent } from 'undici';
  export default ProxyAgent;
}
declare module 'undici/lib/dispatcher/dispatcher.js' {
  import { Dispatcher } from 'undici';
  export default Dispatcher;
}
declare module 'undici/lib/api/index.js' {
  import type { Dispatcher } from 'undici';
  /** The methods the entry point puts on Dispatcher.prototype. */
  const api: Pick<Dispatcher, 'request' | 'stream' | 'pipeline' | 'upgrade' | 'connect'>;
  export default api;
}
