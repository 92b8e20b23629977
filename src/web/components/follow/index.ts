export { CalendarButton, type CalendarShow } from './calendar-button';
export { FollowButton } from './follow-button';
export { PushPrompt, usePushOffer } from './push-prompt';
export { RemindButton } from './remind-button';
