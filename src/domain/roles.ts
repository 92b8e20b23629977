import { z } from 'zod';
import { ROLES } from './role-rules.js';

export const ZRole = z.enum(ROLES);
