// A W3C WebDriver (classic) session over plain HTTP: the handful of commands the browser tests
// use, enough to drive WebKitWebDriver without a client library.
// https://www.w3.org/TR/webdriver2/

/** The key under which WebDriver names an element in JSON. */
const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';

export type ElementRef = { [ELEMENT]: string };

/** WebDriver's code points for the keys the tests press. */
export const KEYS = { Tab: '\uE004', Enter: '\uE007', Escape: '\uE00C' } as const;

export class WebDriverSession {
  private constructor(
    private readonly base: string,
    readonly capabilities: Record<string, unknown>,
  ) {}

  /** A new session (for WebKit, a new browser window) on the driver at `driverUrl`. */
  static async start(driverUrl: string, alwaysMatch: Record<string, unknown>): Promise<WebDriverSession> {
    const { sessionId, capabilities } = await call<{ sessionId: string; capabilities: Record<string, unknown> }>('POST', `${driverUrl}/session`, {
      capabilities: { alwaysMatch },
    });
    return new WebDriverSession(`${driverUrl}/session/${sessionId}`, capabilities);
  }

  command<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
    return call<T>(method, `${this.base}${path}`, body);
  }

  /** The first element matching a CSS selector; waits as long as the session's implicit wait. */
  find(selector: string): Promise<ElementRef> {
    return this.command<ElementRef>('POST', '/element', { using: 'css selector', value: selector });
  }

  click(element: ElementRef): Promise<void> {
    return this.command('POST', `/element/${element[ELEMENT]}/click`, {});
  }

  /** Empties a text field, then types into it (key by key, with the input events that brings). */
  async replaceText(element: ElementRef, text: string): Promise<void> {
    await this.command('POST', `/element/${element[ELEMENT]}/clear`, {});
    await this.command('POST', `/element/${element[ELEMENT]}/value`, { text });
  }

  /** A PNG of the viewport. */
  async screenshot(): Promise<Buffer> {
    return Buffer.from(await this.command<string>('GET', '/screenshot'), 'base64');
  }

  /** Runs a function body (`return ...`) in the page. */
  execute<T>(script: string, args: unknown[] = []): Promise<T> {
    return this.command<T>('POST', '/execute/sync', { script, args });
  }

  /** Key presses (down and up) sent to the focused element. */
  keys(...values: string[]): Promise<void> {
    const actions = values.flatMap((value) => [
      { type: 'keyDown', value },
      { type: 'keyUp', value },
    ]);
    return this.command('POST', '/actions', { actions: [{ type: 'key', id: 'keyboard', actions }] });
  }

  /** Moves the pointer to the centre of an element. */
  pointTo(element: ElementRef): Promise<void> {
    return this.command('POST', '/actions', {
      actions: [{ type: 'pointer', id: 'mouse', parameters: { pointerType: 'mouse' }, actions: [{ type: 'pointerMove', origin: element, x: 0, y: 0 }] }],
    });
  }

  end(): Promise<void> {
    return this.command('DELETE', '');
  }
}

async function call<T>(method: string, url: string, body?: unknown): Promise<T> {
  const res = await fetch(url, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await res.json()) as { value: T & { error?: string; message?: string } };
  if (!res.ok) throw new Error(`WebDriver ${method} ${new URL(url).pathname}: ${answer.value.error ?? res.status}: ${answer.value.message ?? ''}`);
  return answer.value;
}
