import { z } from 'zod';
import { MUTE_MINUTES_MAX } from './chat.js';

/**
 * The chat's inputs, as the server validates them (the Hub's moderator form uses the same schema).
 * Apart from chat.ts so that the buyers' pages, which need the chat's rules but no schema, do not
 * load Zod with them.
 */

/** A line; `announcement` (moderators only) posts it highlighted. The text's own rules are `chatTextProblem`'s, so the refusal says which. */
export const ZChatText = z.object({
  text: z.string({ error: 'chatTextRequired' }).max(10_000, { error: 'chatTextTooLong' }),
  announcement: z.boolean({ error: 'chatAnnouncementInvalid' }).optional(),
});
export const ZChatPin = z.object({ messageId: z.string({ error: 'chatMessageIdInvalid' }).uuid({ error: 'chatMessageIdInvalid' }).nullable() });
export const ZModeratorInput = z.object({
  email: z
    .string({ error: 'chatModeratorEmailInvalid' })
    .trim()
    .toLowerCase()
    .email({ error: 'chatModeratorEmailInvalid' })
    .max(254, { error: 'chatModeratorEmailInvalid' }),
});
export const ZMuteInput = z.object({
  userId: z.string({ error: 'chatUserIdInvalid' }).uuid({ error: 'chatUserIdInvalid' }),
  minutes: z
    .number({ error: 'chatMuteMinutesInvalid' })
    .int({ error: 'chatMuteMinutesInvalid' })
    .min(1, { error: 'chatMuteMinutesInvalid' })
    .max(MUTE_MINUTES_MAX, { error: 'chatMuteMinutesInvalid' })
    .nullable(),
});
export const ZChatSettingsInput = z.object({
  slowModeSeconds: z.union([z.literal(0), z.literal(5), z.literal(10), z.literal(30)], { error: 'chatSlowModeInvalid' }),
});
export const ZBlockInput = z.object({ userId: z.string().uuid() });
