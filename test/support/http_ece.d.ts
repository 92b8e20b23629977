/**
 * http_ece 1.2 ships JavaScript without declarations: the part the local push service uses
 * (test/support/push-service.ts), decrypting an aes128gcm Web Push body as the browser does.
 */
declare module 'http_ece' {
  import type { ECDH } from 'node:crypto';

  interface DecryptParams {
    version: 'aes128gcm' | 'aesgcm' | 'aesgcm128';
    /** The receiver's key pair (the browser's subscription key). */
    privateKey?: ECDH;
    /** The subscription's auth secret (base64url or bytes). */
    authSecret?: string | Buffer;
    dh?: string | Buffer;
  }
  export function decrypt(buffer: Buffer, params: DecryptParams): Buffer;
  const ece: { decrypt: typeof decrypt };
  export default ece;
}
