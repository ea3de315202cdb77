// The main process's own calls to the Cairn server, signed in with the app's session cookie. Used where main
// must not take the renderer's word: a project's key and names, and whether a kept key's project still exists.

interface ApiAnswer<T> {
  status: number;
  data?: T;
  error?: { code: string; message: string };
}

export class CairnApi {
  constructor(
    readonly cairnOrigin: string,
    /** `cairn.sid=…` from the app's cookie jar, or null when signed out. */
    private readonly sessionCookie: () => Promise<string | null>,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  async get<T>(path: string, signal?: AbortSignal): Promise<ApiAnswer<T>> {
    const cookie = await this.sessionCookie();
    const res = await this.fetchImpl(new URL(path, this.cairnOrigin), {
      headers: { accept: 'application/json', ...(cookie ? { cookie } : {}) },
      redirect: 'manual',
      ...(signal ? { signal } : {}),
    });
    const body = (await res.json().catch(() => null)) as { data?: T; error?: { code: string; message: string } } | null;
    return { status: res.status, ...(body?.data !== undefined ? { data: body.data } : {}), ...(body?.error ? { error: body.error } : {}) };
  }

  /** GET that must succeed: the server's own message otherwise. */
  async require<T>(path: string): Promise<T> {
    const answer = await this.get<T>(path);
    if (answer.status === 401) throw new Error('Sign in to Cairn in the app first.');
    if (answer.status !== 200 || answer.data === undefined) throw new Error(answer.error?.message ?? `The Cairn server answered HTTP ${answer.status}.`);
    return answer.data;
  }
}
