/**
 * Every window of the Live Hub has a place in the Hub's one Modal.Stack (live-hub.tsx), as the admin
 * panel's windows do: Escape (and a click outside) closes only the window on top, so 'Gestionar
 * sesiones' → 'Editar' → 'Elegir imagen existente' closes one window at a time. A stacked window
 * must be closed (opened false) before it unmounts, or the stack would keep it as the top.
 */
export const HUB_WINDOW = {
  createSession: 'livehub-create-session',
  createDiscard: 'livehub-create-discard',
  sessions: 'livehub-sessions',
  deleteSession: 'livehub-delete-session',
  edit: 'livehub-edit-session',
  editDiscard: 'livehub-edit-discard',
  crop: 'livehub-cover-crop',
  existingImage: 'livehub-existing-image',
  picker: 'livehub-picker',
  quick: 'livehub-quick-auction',
  quickDiscard: 'livehub-quick-discard',
  quickReopen: 'livehub-quick-reopen',
  publicLink: 'livehub-public-link',
  streamReopen: 'livehub-stream-reopen',
  /** The lots list shows in the Hub ('main') and inside 'Editar Sesión' ('edit'). */
  removeLot: (place: 'main' | 'edit') => `livehub-remove-lot-${place}`,
  lotReopen: (place: 'main' | 'edit') => `livehub-lot-reopen-${place}`,
  timerShorten: 'livehub-timer-shorten',
  /** Leaving the Hub (another show, 'Volver a Admin') while this page broadcasts. */
  leaveOnAir: 'livehub-leave-on-air',
} as const;
