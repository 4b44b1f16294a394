// The engine's REST API with the signed-in user's bearer token; problems (RFC 9457) become ApiError.
import type { Session } from './auth';

export interface FieldIssue { pointer: string; message: string; }

export class ApiError extends Error {
  constructor(readonly status: number, readonly title: string, readonly detail: string, readonly errors: FieldIssue[]) {
    super(detail || title);
  }
}

let session: Session;

export function useSession(s: Session): void {
  session = s;
}

async function headers(extra: Record<string, string> = {}): Promise<Record<string, string>> {
  const token = await session.token();
  return token ? { ...extra, Authorization: `Bearer ${token}` } : extra;
}

export async function api<T = any>(path: string, method = 'GET', body?: unknown): Promise<T> {
  const send = async () => fetch(path, {
    method,
    headers: await headers(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let response = await send();
  if (response.status === 401 && session.config.auth_enabled) {
    // expired or revoked: renew quietly, else sign in again and come back to this very page
    if (!(await session.renew())) await session.signIn();
    response = await send();
  }
  const text = await response.text();
  const json = text ? JSON.parse(text) : undefined;
  if (!response.ok) {
    throw new ApiError(response.status, json?.title ?? response.statusText, json?.detail ?? '', json?.errors ?? []);
  }
  return json as T;
}

/**
 * Follows a server-sent event stream of JSON documents (the engine's /live endpoints) until aborted. fetch
 * rather than EventSource, which cannot send the Authorization header. Reconnects after a drop.
 */
export function live<T>(path: string, onData: (value: T) => void): () => void {
  const abort = new AbortController();
  const run = async () => {
    while (!abort.signal.aborted) {
      try {
        const response = await fetch(path, { headers: await headers({ Accept: 'text/event-stream' }), signal: abort.signal });
        if (!response.ok || !response.body) throw new Error(String(response.status));
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const event = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = event.split('\n').filter(l => l.startsWith('data:')).map(l => l.slice(5).trimStart()).join('\n');
            if (data) onData(JSON.parse(data) as T);
          }
        }
      } catch {
        if (abort.signal.aborted) return;
      }
      await new Promise(r => setTimeout(r, 2000));
    }
  };
  run();
  return () => abort.abort();
}
