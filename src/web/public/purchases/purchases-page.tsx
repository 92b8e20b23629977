/** 'Mis compras': built by the purchases work. */
export function PurchasesPage() {
  return null;
}
