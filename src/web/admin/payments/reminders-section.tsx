/** 'Recordatorios pendientes': built by the reminders work (wa.me buttons; the Cloud API's sends and failures). */
export function RemindersSection(_props: { isMobile: boolean }) {
  return null;
}
