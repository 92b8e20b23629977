import { z } from 'zod';
import { ROLES } from './role-rules.js';

/** The Zod-free rules (role-rules.ts), re-exported for the existing importers. */
export * from './role-rules.js';

export const ZRole = z.enum(ROLES);
