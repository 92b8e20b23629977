/** The live show's load processes: the bench forks this file with the role in ROLE_ENV. */
import { runChatters } from './chatters.js';
import { ROLE_ENV } from './protocol.js';
import { runShow } from './show.js';
import { runViewers } from './viewers.js';

const role = process.env[ROLE_ENV];
if (role === 'viewers') await runViewers();
else if (role === 'show') await runShow();
else if (role === 'chatters') await runChatters();
else throw new Error(`unknown live-show role: ${role}`);
process.disconnect?.();
