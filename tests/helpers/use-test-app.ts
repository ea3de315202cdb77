import { afterAll, beforeAll } from 'vitest';
import type { RunningGateway } from '../../server/gateway-app';
import { startTestApp, type TestApp, type TestAppOptions } from './test-app';
import { startTestGateway } from './gateway';
import type { TestDatabase } from './db-template';

export type StartedTestApp = TestApp & { database: TestDatabase };

/** Options now, or read in beforeAll (for a value an earlier beforeAll makes, e.g. a fake server's URL). */
type Lazy<T> = T | (() => T | Promise<T>);
const resolve = async <T>(v: Lazy<T>): Promise<T> => (typeof v === 'function' ? await (v as () => T | Promise<T>)() : v);

/**
 * Stands for what a beforeAll makes: reading a property before then fails with `what`'s name.
 */
function lateBound<T extends object>(current: () => T | undefined, what: string): T {
  const started = (): T => {
    const target = current();
    if (!target) throw new Error(`${what} starts in beforeAll: use it inside a test or a later hook`);
    return target;
  };
  return new Proxy({} as T, {
    // Values as they are (a knex handle is a function with properties, so nothing is bound): the
    // objects this stands for are plain objects of closures.
    get: (_, prop) => Reflect.get(started(), prop),
    set: (_, prop, value) => Reflect.set(started(), prop, value),
    has: (_, prop) => prop in started(),
  });
}

/**
 * The app-per-file set-up: starts the real app (startTestApp with `options`) in beforeAll and, in
 * afterAll, stops it and drops its database (a database the options hand in belongs to whoever made
 * it and is left alone). Call it at the top of a file or inside a describe; what it answers is used
 * like the app itself (`app.url`, `app.db` …) from the tests and later hooks.
 */
export function useTestApp(options: Lazy<TestAppOptions> = {}): StartedTestApp {
  let app: StartedTestApp | undefined;
  let ownDatabase = true;
  beforeAll(async () => {
    const opts = await resolve(options);
    ownDatabase = !opts.database;
    app = await startTestApp(opts);
  });
  afterAll(async () => {
    await app?.stop();
    if (ownDatabase) await app?.database.drop();
    app = undefined;
  });
  return lateBound(() => app, 'the test app');
}

/**
 * A gateway over `app`'s database (startTestGateway), started in beforeAll after the hooks written
 * before this call and closed in afterAll before the app stops.
 */
export function useTestGateway(app: StartedTestApp, env: Lazy<Record<string, string>> = {}, options: { redisPrefix?: string } & Parameters<typeof startTestGateway>[3] = {}): RunningGateway {
  let gw: RunningGateway | undefined;
  beforeAll(async () => {
    const { redisPrefix, ...rest } = options;
    gw = await startTestGateway(app, await resolve(env), redisPrefix, rest);
  });
  afterAll(async () => {
    await gw?.close();
    gw = undefined;
  });
  return lateBound(() => gw, 'the test gateway');
}
