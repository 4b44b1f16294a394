// Browser sign-in: OAuth 2 authorization code with PKCE (S256) against the engine's Keycloak, public client,
// no secret. Tokens live in sessionStorage (gone when the tab closes); a refresh token renews them quietly.

export interface UiConfig { auth_enabled: boolean; issuer: string; client_id: string; }

interface Tokens { access: string; refresh?: string; id?: string; expiresAt: number; }
interface Pending { verifier: string; state: string; returnTo: string; }

const TOKENS = 'continuum.tokens';
const PENDING = 'continuum.pkce';

function base64url(bytes: Uint8Array): string {
  let s = '';
  bytes.forEach(b => (s += String.fromCharCode(b)));
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function randomString(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(32)));
}

async function challengeOf(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}

export interface Claims { preferred_username?: string; realm_access?: { roles?: string[] }; exp?: number; }

export class Session {
  constructor(readonly config: UiConfig) {}

  private endpoint(name: 'auth' | 'logout'): string {
    return `${this.config.issuer}/protocol/openid-connect/${name}`;
  }

  private redirectUri(): string {
    return location.origin + '/';
  }

  /** Finishes a sign-in that Keycloak redirected back to this page; true when signed in (or auth is off). */
  async start(): Promise<boolean> {
    if (!this.config.auth_enabled) return true;
    const params = new URLSearchParams(location.search);
    const code = params.get('code');
    const pendingText = sessionStorage.getItem(PENDING);
    if (code && pendingText) {
      const pending = JSON.parse(pendingText) as Pending;
      sessionStorage.removeItem(PENDING);
      if (params.get('state') !== pending.state) throw new Error('Sign-in answer does not match this browser tab.');
      await this.exchange({ grant_type: 'authorization_code', code, redirect_uri: this.redirectUri(),
        code_verifier: pending.verifier });
      history.replaceState(null, '', this.redirectUri() + pending.returnTo);
    }
    return this.tokens() !== null;
  }

  async signIn(): Promise<never> {
    const pending: Pending = { verifier: randomString(), state: randomString(), returnTo: location.hash || '#/runs' };
    sessionStorage.setItem(PENDING, JSON.stringify(pending));
    const query = new URLSearchParams({
      client_id: this.config.client_id, redirect_uri: this.redirectUri(), response_type: 'code',
      response_mode: 'query', scope: 'openid', state: pending.state,
      code_challenge: await challengeOf(pending.verifier), code_challenge_method: 'S256',
    });
    location.assign(`${this.endpoint('auth')}?${query}`);
    return new Promise<never>(() => {});
  }

  /**
   * RP-initiated logout with the ID token as its hint: Keycloak ends the session at once, without asking "Do you want
   * to log out?" (it asks when it cannot tell who sends the browser), and sends the browser back here, signed out.
   */
  signOut(): void {
    const idToken = this.tokens()?.id;
    sessionStorage.removeItem(TOKENS);
    const query = new URLSearchParams({ client_id: this.config.client_id, post_logout_redirect_uri: this.redirectUri(),
      ...(idToken ? { id_token_hint: idToken } : {}) });
    location.assign(`${this.endpoint('logout')}?${query}`);
  }

  /** A fresh access token, renewed with the refresh token when it is about to expire; null when signed out. */
  async token(): Promise<string | null> {
    if (!this.config.auth_enabled) return null;
    const tokens = this.tokens();
    if (!tokens) return null;
    if (tokens.expiresAt - Date.now() > 15_000) return tokens.access;
    return (await this.renew()) ? this.tokens()!.access : null;
  }

  /** Renews with the refresh token; false (and signed out) when Keycloak refuses it. */
  async renew(): Promise<boolean> {
    const { refresh, id } = this.tokens() ?? {};
    sessionStorage.removeItem(TOKENS);
    if (!refresh) return false;
    try {
      await this.exchange({ grant_type: 'refresh_token', refresh_token: refresh }, id);
      return true;
    } catch {
      return false;
    }
  }

  claims(): Claims {
    const access = this.tokens()?.access;
    if (!access) return {};
    const payload = access.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
    return JSON.parse(decodeURIComponent(escape(atob(payload)))) as Claims;
  }

  user(): string {
    return this.config.auth_enabled ? this.claims().preferred_username ?? '' : 'local user';
  }

  private tokens(): Tokens | null {
    const text = sessionStorage.getItem(TOKENS);
    return text ? (JSON.parse(text) as Tokens) : null;
  }

  private async exchange(form: Record<string, string>, idBefore?: string): Promise<void> {
    // the engine passes this on to Keycloak's token endpoint (same origin: Keycloak needs no CORS setup)
    const response = await fetch('/ui/token', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...form, client_id: this.config.client_id }),
    });
    if (!response.ok) throw new Error(`Sign-in refused (${response.status})`);
    const body = await response.json();
    // a refresh may come without a new ID token: the one from sign-in still names the session for sign-out
    const tokens: Tokens = { access: body.access_token, refresh: body.refresh_token, id: body.id_token ?? idBefore,
      expiresAt: Date.now() + body.expires_in * 1000 };
    sessionStorage.setItem(TOKENS, JSON.stringify(tokens));
  }
}
