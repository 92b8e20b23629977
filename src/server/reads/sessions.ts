import { AppError } from '../http/errors.js';
import { messages } from '../messages.js';

/** What a request about a live session answers when the session is missing or out of the actor's sight. */
export const sessionNotFound = () => new AppError('NOT_FOUND', messages.live.sessionNotFound);
