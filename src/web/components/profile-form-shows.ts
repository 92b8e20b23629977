import type { Me, PublicConfig } from '../../domain/api-types.js';

/** What 'Completa Tu Perfil' asks and says, by who fills it in and how they signed in. */
export interface ProfileFormShows {
  /** A seller's business name: asked of sellers and admins without a company (a company's admins name it in 'Empresa'), never of a buyer. */
  businessName: boolean;
  /** 'Tomado de tu cuenta de Google' only when the sign-in is Google's; while that is unknown, no claim. */
  googleHint: boolean;
  /** The intro speaks of sales only to those who sell. */
  sells: boolean;
}

export function profileFormShows(
  me: Pick<Me, 'roles'> & { profile: { companyId: string | null } },
  signIn: PublicConfig['signIn'] | undefined,
): ProfileFormShows {
  const sells = me.roles.includes('seller') || me.roles.includes('admin');
  return { businessName: sells && !me.profile.companyId, googleHint: signIn === 'google', sells };
}
