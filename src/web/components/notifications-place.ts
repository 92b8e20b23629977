/**
 * Where toasts may show, for a screen that must keep them off parts of itself (the phone Hub: off
 * its top bar and its controls). The screen sets these CSS variables on the root element while it
 * is on screen and removes them when it goes; notifications-container.module.css reads them.
 */
export const TOASTS_TOP_VAR = '--app-toasts-top';
export const TOASTS_HEIGHT_VAR = '--app-toasts-max-height';
