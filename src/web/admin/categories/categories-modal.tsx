export interface CategoriesModalProps {
  opened: boolean;
  onClose: () => void;
}

/** 'Categorías' (SPEC §2 modals, admin only). */
export function CategoriesModal(_props: CategoriesModalProps) {
  return null;
}
