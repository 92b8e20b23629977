import * as client from 'openid-client';
import { type OidcIdentityProvider, SignInError } from './types.js';

/**
 * Google (or any OpenID Connect issuer) through openid-client: code flow with PKCE (S256),
 * state and nonce. Discovery is lazy and retried, so an issuer that is down at start-up
 * fails one sign-in with a clear page instead of stopping the server.
 */
export function createOidcProvider(opts: { issuer: string; clientId: string; clientSecret: string; timeoutSeconds?: number }): OidcIdentityProvider {
  let config: Promise<client.Configuration> | null = null;
  const insecure = new URL(opts.issuer).protocol === 'http:';

  function discover(): Promise<client.Configuration> {
    config ??= client
      .discovery(new URL(opts.issuer), opts.clientId, opts.clientSecret, undefined, {
        timeout: opts.timeoutSeconds ?? 10,
        ...(insecure ? { execute: [client.allowInsecureRequests] } : {}),
      })
      .catch((err: unknown) => {
        config = null;
        throw new SignInError('issuerUnavailable', { cause: err });
      });
    return config;
  }

  return {
    issuer: opts.issuer,
    async authorizationUrl(req) {
      const cfg = await discover();
      return client.buildAuthorizationUrl(cfg, {
        redirect_uri: req.redirectUri,
        scope: 'openid email profile',
        response_type: 'code',
        state: req.state,
        nonce: req.nonce,
        code_challenge: await client.calculatePKCECodeChallenge(req.codeVerifier),
        code_challenge_method: 'S256',
        prompt: 'select_account',
      });
    },
    async complete(callbackUrl, req) {
      const cfg = await discover();
      let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
      try {
        tokens = await client.authorizationCodeGrant(cfg, callbackUrl, {
          pkceCodeVerifier: req.codeVerifier,
          expectedState: req.state,
          expectedNonce: req.nonce,
          idTokenExpected: true,
        });
      } catch (err) {
        throw classify(err);
      }
      const claims = tokens.claims();
      if (!claims) throw new SignInError('providerFailed');
      const email = typeof claims.email === 'string' ? claims.email : '';
      // Google marks its own accounts verified; an unverified address could belong to someone else.
      if (!email || claims.email_verified !== true) throw new SignInError('emailMissing');
      const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
      return {
        issuer: claims.iss,
        subject: claims.sub,
        email,
        emailVerified: true,
        name: str(claims.name),
        givenName: str(claims.given_name),
        familyName: str(claims.family_name),
        picture: str(claims.picture),
      };
    },
  };
}

function classify(err: unknown): SignInError {
  if (err instanceof SignInError) return err;
  if (err instanceof client.AuthorizationResponseError) {
    return new SignInError(err.error === 'access_denied' ? 'providerDenied' : 'providerFailed', { cause: err });
  }
  if (err instanceof client.ResponseBodyError) return new SignInError('providerFailed', { cause: err });
  // fetch() rejects with a TypeError when the issuer cannot be reached at all.
  if (err instanceof TypeError || (err instanceof Error && /fetch failed|ECONNREFUSED|timed? ?out|aborted/i.test(err.message))) {
    return new SignInError('issuerUnavailable', { cause: err });
  }
  return new SignInError('providerFailed', { cause: err });
}
