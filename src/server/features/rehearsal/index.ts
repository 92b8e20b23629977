/**
 * The rehearsal feature's public face ('Ensayo': simulated bidders and viewers in a practice show).
 * It drives live sessions through live's public file; live never imports it, so the copies a
 * rehearsal takes and puts back stay in live (live/sessions/rehearsal-snapshot.ts).
 */
export { REHEARSAL_TICK_MS, restoreEndedRehearsal, startRehearsalDriver } from './rehearsal-driver.js';
