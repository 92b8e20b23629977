import type { Profile } from './profile.js';
import type { Role } from './role-rules.js';
import type { VideoClientConfig } from './video.js';

/** The JSON error body of every failed API call. `message` is Spanish, ready for the UI. */
export interface ApiErrorBody {
  error: { code: string; message: string; fields?: Record<string, string> };
}

/** GET /api/me, signed in (signed out it is SignedOutMe). */
export interface Me {
  user: { id: string; email: string; displayName: string | null; avatarUrl: string | null };
  profile: Profile;
  roles: Role[];
  companyId: string;
  companyName: string | null;
  /** The company's *Grabar los shows*: where a new show's *Grabar el show* starts (true for a company with no record yet). */
  companyRecordsShows: boolean;
  profileComplete: boolean;
}

/** GET /api/me for a visitor with no session: an answer, not an error, so a signed-out page logs none. */
export interface SignedOutMe {
  user: null;
}
export type MeAnswer = Me | SignedOutMe;

/** GET /api/config: which engine runs each part, for the UI's own hints. */
export interface PublicConfig {
  signIn: 'google' | 'development';
  payments: 'sandbox' | 'mercadopago';
  video: VideoClientConfig;
}
