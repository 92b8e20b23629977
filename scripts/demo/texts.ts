import type { Condicion } from '../../src/domain/auctions.js';
import type { Random } from './random.js';

/** The Spanish words around each listing: description, shipping option and the carrier a payment uses. */

export const CARRIERS = ['Estafeta', 'DHL', 'FedEx', 'Paquetexpress'] as const;
export const FREE_SHIPPING = 'Envío gratis a todo México';

const CONDITION_SENTENCE: Record<Condicion, string> = {
  Nuevo: 'Nuevo, sin uso.',
  'Como Nuevo': 'Como nuevo: se usó muy pocas veces y no tiene marcas visibles.',
  'Usado + (Excelente)': 'Usado en excelente estado, con detalles mínimos de uso.',
  'Usado (Buen Estado)': 'Usado en buen estado; tiene las marcas normales de uso que se ven en las fotos.',
  'Usado - (Aceptable)': 'Usado, con desgaste visible, pero funciona bien.',
  'Aceptable/Funcional': 'Funciona, aunque tiene rayones y desgaste notable.',
  'Reparación/Piezas': 'Se vende para reparación o piezas; no se garantiza su funcionamiento.',
};

const CLOSINGS = [
  'Pago dentro de los 3 días siguientes a ganar la subasta.',
  'Cualquier duda, pregúntanos por WhatsApp antes de ofertar.',
  'Revisa todas las fotos: lo que ves es lo que recibes.',
  'Si ganas varias piezas con nosotros, las juntamos en un solo envío.',
  'Aceptamos tarjeta, OXXO y transferencia SPEI.',
  'Factura disponible si la solicitas al pagar.',
];

export function describe(random: Random, opts: { details: string; condicion: Condicion; envio: string }): string {
  let shipping: string;
  if (opts.envio === FREE_SHIPPING) shipping = 'Envío gratis a todo México; sale en 1 a 2 días hábiles.';
  else if (opts.envio.startsWith('Recoger en '))
    shipping = `Entrega en persona en ${opts.envio.slice('Recoger en '.length)}; también se puede enviar por cobrar.`;
  else shipping = `Se envía por ${opts.envio} con número de rastreo.`;
  const closings = random.shuffle(CLOSINGS).slice(0, random.int(1, 2));
  return [opts.details, CONDITION_SENTENCE[opts.condicion], shipping, ...closings].join(' ');
}

/** How an item travels: bulky things by Paquetexpress or pickup; valuable ones more often ship free. */
export function pickEnvio(random: Random, opts: { bulky: boolean; value: number; city: string }): string {
  const pickup = `Recoger en ${opts.city}`;
  if (opts.bulky) return random.pick(['Paquetexpress', 'Paquetexpress', pickup, pickup]);
  const options = [FREE_SHIPPING, 'Estafeta', 'Estafeta', 'DHL', 'FedEx', 'Paquetexpress', pickup];
  if (opts.value > 5000) options.push(FREE_SHIPPING, 'DHL');
  return random.pick(options);
}

const BASE_COST: Record<(typeof CARRIERS)[number], number> = { Estafeta: 189, DHL: 249, FedEx: 229, Paquetexpress: 299 };

/** The carrier and cost of one order, from its first item's shipping option; each extra item adds 40 pesos. */
export function shippingFor(envio: string, items: number): { carrier: string; cost: number } {
  if (envio === FREE_SHIPPING) return { carrier: 'Estafeta', cost: 0 };
  if (envio.startsWith('Recoger en ')) return { carrier: envio, cost: 0 };
  const carrier = (CARRIERS as readonly string[]).includes(envio) ? (envio as (typeof CARRIERS)[number]) : 'Estafeta';
  return { carrier, cost: BASE_COST[carrier] + 40 * (items - 1) };
}
