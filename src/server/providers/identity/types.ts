/** What a verified sign-in tells about the person: the auth feature finds or creates their account from it. */
export interface IdentityClaims {
  issuer: string;
  subject: string;
  email: string;
  emailVerified: boolean;
  name?: string | undefined;
  givenName?: string | undefined;
  familyName?: string | undefined;
  picture?: string | undefined;
}

/** Why a sign-in failed, in terms the error page can explain. */
export type SignInFailure = 'stateMismatch' | 'providerDenied' | 'providerFailed' | 'issuerUnavailable' | 'emailMissing';

export class SignInError extends Error {
  constructor(
    readonly reason: SignInFailure,
    options?: { cause?: unknown },
  ) {
    super(reason, options);
  }
}

export interface AuthorizationRequest {
  redirectUri: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

/**
 * The sign-in issuer: Google by default, or any OpenID Connect issuer. Built from config in
 * providers/index.ts, which answers null when development sign-in is in use.
 */
export interface OidcIdentityProvider {
  readonly issuer: string;
  authorizationUrl(req: AuthorizationRequest): Promise<URL>;
  /** Exchanges the callback's code, checking state, nonce and PKCE; returns the verified claims. */
  complete(callbackUrl: URL, req: AuthorizationRequest): Promise<IdentityClaims>;
}
