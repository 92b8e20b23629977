import type { Me } from '../../../domain/api-types.js';

export interface UsersModalProps {
  opened: boolean;
  onClose: () => void;
  me: Me;
}

/** 'Usuarios' (SPEC §2 modals, admin only). */
export function UsersModal(_props: UsersModalProps) {
  return null;
}
