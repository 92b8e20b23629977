// placeholder: the store helper's version replaces this
export { CalendarButton } from './calendar-button';
export { RemindButton } from './remind-button';
