/**
 * The credentials a run was given: the first call the server answers with each key must not be
 * 401. A refused key is no finding about the server (every check would fail for it): the run
 * stops and names the option that holds the key.
 */
import { Client, type RequestOptions } from './client.js';
import type { ConformanceTarget, Exchange } from './report.js';

/** The server refused a key of the run (401 on its first authenticated call): the run stops (exit 2). */
export class ConformanceCredentialsError extends Error {
  override name = 'ConformanceCredentialsError';
  constructor(
    /** The option that holds the refused key, e.g. `--api-key` or `--compare-api-key`. */
    readonly option: string,
    /** The request the server answered 401, e.g. `POST /transactions`. */
    readonly request: string,
    url: string,
  ) {
    super(`${url} refused the key given as ${option}: 401 on its first authenticated call (${request}); check that key and its account id`);
  }
}

/** Which of the run's keys a request carries, as its option name without the prefix, or null for other credentials. */
function keyOption(target: ConformanceTarget, auth: Record<string, string>): string | null {
  const header = Object.entries(auth).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
  if (header === `Bearer ${target.apiKey}`) return 'api-key';
  if (target.checkout !== undefined && header === `Bearer ${target.checkout.apiKey}`) return 'checkout-api-key';
  if (target.restrictedApiKey !== undefined && header === `Bearer ${target.restrictedApiKey}`) return 'restricted-api-key';
  return null;
}

/**
 * A client that stops the run when the first call with one of the run's keys is answered 401.
 * `accepted` holds the options whose key the server has already answered otherwise; it is
 * shared by every check against one server.
 */
export class CredentialsCheckingClient extends Client {
  constructor(
    target: ConformanceTarget,
    private readonly prefix: '--' | '--compare-',
    private readonly accepted: Set<string>,
  ) {
    super(target);
  }

  override async request(method: string, path: string, options: RequestOptions = {}): Promise<Exchange> {
    const option = keyOption(this.target, options.auth ?? this.credentials());
    const ex = await super.request(method, path, options);
    if (option !== null && !this.accepted.has(option)) {
      if (ex.response.status === 401)
        throw new ConformanceCredentialsError(`${this.prefix}${option}`, `${method} ${path}`, this.target.url);
      this.accepted.add(option);
    }
    return ex;
  }
}
