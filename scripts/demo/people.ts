import type { Role } from '../../src/domain/role-rules.js';

/**
 * The demo's people: one platform admin, two companies (an admin and sellers each) and buyers.
 * Emails are under demo.martillo.mx and say who is who, because the development sign-in form
 * lists them by email. WhatsApp numbers are valid Mexican numbers (area code + 8 digits) whose
 * subscriber part starts with 0000, a range no Mexican line is given, so a wa.me link reaches nobody.
 */

export interface DemoCompany {
  companyId: string;
  companyName: string;
  city: string;
  /** Invoicing data of the company record (fictional RFCs with a valid check digit). */
  rfc: string;
  legalName: string;
}

export interface DemoPerson {
  /** Stable key the plan refers to. */
  key: string;
  email: string;
  firstName: string;
  lastName: string;
  roles: Role[];
  /** Null for the platform admin and buyers. */
  companyId: string | null;
  companyName: string | null;
  whatsappLocal: string;
  city: string;
}

export const COMPANIES: readonly DemoCompany[] = [
  {
    companyId: 'tianguis-tapatio',
    companyName: 'El Tianguis Tapatío',
    city: 'Guadalajara',
    rfc: 'ETT150312K51',
    legalName: 'El Tianguis Tapatío, S.A. de C.V.',
  },
  {
    companyId: 'remates-del-norte',
    companyName: 'Remates del Norte',
    city: 'Monterrey',
    rfc: 'RDN090721H30',
    legalName: 'Remates del Norte, S. de R.L. de C.V.',
  },
];

const tianguis = { companyId: 'tianguis-tapatio', companyName: 'El Tianguis Tapatío', city: 'Guadalajara' };
const norte = { companyId: 'remates-del-norte', companyName: 'Remates del Norte', city: 'Monterrey' };
const buyer = { roles: ['buyer'] as Role[], companyId: null, companyName: null };

export const PEOPLE: readonly DemoPerson[] = [
  {
    key: 'platform-admin',
    email: 'admin@demo.martillo.mx',
    firstName: 'Andrea',
    lastName: 'Robles Sandoval',
    roles: ['admin', 'buyer'],
    companyId: null,
    companyName: 'Martillo',
    whatsappLocal: '5500000100',
    city: 'Ciudad de México',
  },
  {
    key: 'tianguis-admin',
    email: 'tianguis.admin@demo.martillo.mx',
    firstName: 'Mariana',
    lastName: 'Villaseñor Ochoa',
    roles: ['admin', 'buyer'],
    ...tianguis,
    whatsappLocal: '3300000101',
  },
  {
    key: 'tianguis-lupita',
    email: 'tianguis.lupita@demo.martillo.mx',
    firstName: 'Guadalupe',
    lastName: 'Ramírez Orozco',
    roles: ['seller', 'buyer'],
    ...tianguis,
    whatsappLocal: '3300000102',
  },
  {
    key: 'tianguis-chuy',
    email: 'tianguis.chuy@demo.martillo.mx',
    firstName: 'Jesús',
    lastName: 'Navarro Íñiguez',
    roles: ['seller', 'buyer'],
    ...tianguis,
    whatsappLocal: '3300000103',
  },
  {
    key: 'tianguis-majo',
    email: 'tianguis.majo@demo.martillo.mx',
    firstName: 'María José',
    lastName: 'Limón Castañeda',
    roles: ['seller', 'buyer'],
    ...tianguis,
    whatsappLocal: '3300000104',
  },
  {
    key: 'norte-admin',
    email: 'norte.admin@demo.martillo.mx',
    firstName: 'Rodrigo',
    lastName: 'Garza Treviño',
    roles: ['admin', 'buyer'],
    ...norte,
    whatsappLocal: '8100000101',
  },
  {
    key: 'norte-paty',
    email: 'norte.paty@demo.martillo.mx',
    firstName: 'Patricia',
    lastName: 'Cantú Elizondo',
    roles: ['seller', 'buyer'],
    ...norte,
    whatsappLocal: '8100000102',
  },
  {
    key: 'norte-lalo',
    email: 'norte.lalo@demo.martillo.mx',
    firstName: 'Eduardo',
    lastName: 'Salinas Villarreal',
    roles: ['seller', 'buyer'],
    ...norte,
    whatsappLocal: '8100000103',
  },
  {
    key: 'buyer-sofia',
    email: 'comprador.sofia@demo.martillo.mx',
    firstName: 'Sofía',
    lastName: 'Hernández Luna',
    ...buyer,
    whatsappLocal: '5500000201',
    city: 'Ciudad de México',
  },
  {
    key: 'buyer-diego',
    email: 'comprador.diego@demo.martillo.mx',
    firstName: 'Diego',
    lastName: 'Martínez Soto',
    ...buyer,
    whatsappLocal: '2220000202',
    city: 'Puebla',
  },
  {
    key: 'buyer-valeria',
    email: 'comprador.valeria@demo.martillo.mx',
    firstName: 'Valeria',
    lastName: 'López Ibarra',
    ...buyer,
    whatsappLocal: '4420000203',
    city: 'Querétaro',
  },
  {
    key: 'buyer-luisfer',
    email: 'comprador.luisfer@demo.martillo.mx',
    firstName: 'Luis Fernando',
    lastName: 'Aguilar Canché',
    ...buyer,
    whatsappLocal: '9990000204',
    city: 'Mérida',
  },
  {
    key: 'buyer-fernanda',
    email: 'comprador.fernanda@demo.martillo.mx',
    firstName: 'Fernanda',
    lastName: 'Castillo Ruelas',
    ...buyer,
    whatsappLocal: '6640000205',
    city: 'Tijuana',
  },
  {
    key: 'buyer-alejandro',
    email: 'comprador.alejandro@demo.martillo.mx',
    firstName: 'Alejandro',
    lastName: 'Domínguez Pérez',
    ...buyer,
    whatsappLocal: '4770000206',
    city: 'León',
  },
  {
    key: 'buyer-ximena',
    email: 'comprador.ximena@demo.martillo.mx',
    firstName: 'Ximena',
    lastName: 'Ruiz Gallardo',
    ...buyer,
    whatsappLocal: '3300000207',
    city: 'Guadalajara',
  },
  {
    key: 'buyer-carlos',
    email: 'comprador.carlos@demo.martillo.mx',
    firstName: 'Carlos',
    lastName: 'Mendoza Leal',
    ...buyer,
    whatsappLocal: '8100000208',
    city: 'Monterrey',
  },
];

export const SELLERS = PEOPLE.filter((p) => p.roles.includes('seller'));
export const BUYERS = PEOPLE.filter((p) => p.roles.length === 1 && p.roles[0] === 'buyer');

export const displayName = (p: DemoPerson) => `${p.firstName} ${p.lastName}`;
export const whatsappOf = (p: DemoPerson) => `+52${p.whatsappLocal}`;

export function personByKey(key: string): DemoPerson {
  const person = PEOPLE.find((p) => p.key === key);
  if (!person) throw new Error(`unknown demo person ${key}`);
  return person;
}
