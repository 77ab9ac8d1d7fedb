/**
 * The few types the interop test uses from oidc-provider, which ships no declarations (and
 * @types/oidc-provider is not installed).
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface KoaContextWithOIDC {
    oidc?: { params?: Record<string, unknown> };
  }

  export interface Account {
    accountId: string;
    claims(use: string, scope: string, claims: unknown, rejected: string[]): Promise<Record<string, unknown>>;
  }

  export interface Configuration {
    clients?: Record<string, unknown>[];
    jwks?: { keys: Record<string, unknown>[] };
    cookies?: { keys?: string[] };
    ttl?: Record<string, number>;
    pkce?: { required?: () => boolean };
    scopes?: string[];
    claims?: Record<string, string[] | null>;
    conformIdTokenClaims?: boolean;
    features?: Record<string, { enabled: boolean }>;
    findAccount?(ctx: KoaContextWithOIDC, sub: string, token?: unknown): Promise<Account | undefined>;
  }

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
