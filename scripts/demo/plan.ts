import type { Condicion } from '../../src/domain/auctions.js';
import { CATALOG, type DemoCategory, type DemoItem } from './catalog.js';
import { BUYERS, COMPANIES, type DemoPerson, SELLERS } from './people.js';
import { createRandom, type Random } from './random.js';
import { describe, pickEnvio, shippingFor } from './texts.js';

/**
 * The whole demo as data, decided by a seeded PRNG before anything is written: the same seed
 * gives the same auctions, bids and payments. Times are offsets in milliseconds from "now",
 * which the seeder fixes when it writes them.
 */

export const DEFAULT_SIZE = 300;
export const DEMO_SEED = 52_2025;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export type AuctionKind = 'pending' | 'active' | 'ended';

export interface PlannedBid {
  bidderKey: string;
  amount: number;
  at: number;
}

export interface PlannedImage {
  view: 0 | 1 | 2;
  title: string;
  subtitle: string | null;
}

export interface PlannedAuction {
  index: number;
  sellerKey: string;
  companyId: string;
  category: DemoCategory;
  name: string;
  description: string;
  marca: string | null;
  envio: string;
  condicion: Condicion;
  startingPrice: number;
  buyNowPrice: number | null;
  kind: AuctionKind;
  createdAt: number;
  /** Null: a pending auction with no end time yet. */
  endTime: number | null;
  images: PlannedImage[];
  /** Ascending amounts and times; the last one leads (and wins, once ended). */
  bids: PlannedBid[];
}

export interface PlannedPayment {
  winnerKey: string;
  sellerKey: string;
  companyId: string;
  auctionIndexes: number[];
  shippingCarrier: string;
  shippingCost: number;
  paidAt: number;
  payoutStatus: 'none' | 'requested' | 'paid_out';
}

export interface DemoPlan {
  auctions: PlannedAuction[];
  payments: PlannedPayment[];
}

/** Second-hand goods; 'Nuevo' and 'Reparación/Piezas' only where an item's own text says so. */
const USED: readonly Condicion[] = [
  'Como Nuevo',
  'Como Nuevo',
  'Usado + (Excelente)',
  'Usado + (Excelente)',
  'Usado (Buen Estado)',
  'Usado (Buen Estado)',
  'Usado (Buen Estado)',
  'Usado - (Aceptable)',
];

/** What an item in this condition is worth, as a share of its good-condition value. */
const CONDITION_FACTOR: Record<Condicion, number> = {
  Nuevo: 1.1,
  'Como Nuevo': 1,
  'Usado + (Excelente)': 0.92,
  'Usado (Buen Estado)': 0.82,
  'Usado - (Aceptable)': 0.7,
  'Aceptable/Funcional': 0.6,
  'Reparación/Piezas': 0.35,
};

/** Prices people actually type: $350, $1,450, $8,900, $24,500. */
export function roundPrice(value: number): number {
  const unit = value < 500 ? 10 : value < 2000 ? 50 : value < 10_000 ? 100 : 500;
  return Math.max(unit, Math.round(value / unit) * unit);
}

/** The raise of one bid at this price: at least the minimum increment of 20 pesos. */
function bidStep(random: Random, price: number): number {
  if (price < 1000) return random.pick([20, 20, 30, 50]);
  if (price < 5000) return random.pick([50, 100, 100, 150, 200]);
  if (price < 20_000) return random.pick([100, 200, 250, 500]);
  return random.pick([500, 500, 1000]);
}

/** Exactly the shares asked for, in shuffled order, so even a small demo has every kind. */
function allocateKinds(random: Random, size: number): AuctionKind[] {
  const pending = Math.round(size * 0.12);
  const active = Math.round(size * 0.48);
  const kinds: AuctionKind[] = [...Array<AuctionKind>(pending).fill('pending'), ...Array<AuctionKind>(active).fill('active')];
  while (kinds.length < size) kinds.push('ended');
  return random.shuffle(kinds);
}

function schedule(random: Random, kind: AuctionKind): { createdAt: number; endTime: number | null } {
  if (kind === 'pending') {
    const createdAt = -random.between(10 * MINUTE, 4 * DAY);
    return { createdAt, endTime: random.chance(0.5) ? null : random.between(2 * DAY, 12 * DAY) };
  }
  if (kind === 'active') {
    const r = random.next();
    // Some end within the hour, so the countdowns visibly move right after seeding.
    const endTime = r < 0.2 ? random.between(5 * MINUTE, 45 * MINUTE) : r < 0.5 ? random.between(45 * MINUTE, 8 * HOUR) : random.between(8 * HOUR, 5 * DAY);
    return { createdAt: Math.min(endTime - random.between(1 * DAY, 7 * DAY), -random.between(30 * MINUTE, 2 * DAY)), endTime };
  }
  const r = random.next();
  const endTime = -(r < 0.4 ? random.between(1 * HOUR, 1 * DAY) : r < 0.75 ? random.between(1 * DAY, 7 * DAY) : random.between(7 * DAY, 30 * DAY));
  return { createdAt: endTime - random.between(1 * DAY, 7 * DAY), endTime };
}

function planBids(random: Random, opts: { value: number; startingPrice: number; buyNowPrice: number | null; from: number; to: number }): PlannedBid[] {
  const target = opts.value * random.between(0.85, 1.12);
  const cap = opts.buyNowPrice ?? Number.POSITIVE_INFINITY;
  const maxBids = random.int(1, 14);
  const bidders = random.shuffle(BUYERS).slice(0, random.int(2, 4));
  const amounts = [opts.startingPrice];
  while (amounts.length < maxBids) {
    const last = amounts[amounts.length - 1] as number;
    const next = last + bidStep(random, last);
    if (next >= cap || (next > target && amounts.length > 1)) break;
    amounts.push(next);
  }
  const times = amounts.map(() => random.between(opts.from, opts.to)).sort((a, b) => a - b);
  const bids: PlannedBid[] = [];
  let previous: DemoPerson | null = null;
  for (const [i, amount] of amounts.entries()) {
    // Nobody outbids themselves.
    const bidder: DemoPerson = random.pick(bidders.filter((b) => b !== previous));
    bids.push({ bidderKey: bidder.key, amount, at: Math.round(times[i] as number) });
    previous = bidder;
  }
  return bids;
}

function planImages(random: Random, a: { name: string; marca: string | null; condicion: Condicion; envio: string; categoryName: string }): PlannedImage[] {
  const r = random.next();
  const count = r < 0.6 ? 1 : r < 0.88 ? 2 : 3;
  const views: PlannedImage[] = [
    { view: 0, title: a.name, subtitle: a.marca },
    { view: 1, title: a.condicion, subtitle: a.marca ? `${a.marca} · ${a.categoryName}` : a.categoryName },
    { view: 2, title: a.envio, subtitle: a.name },
  ];
  return views.slice(0, count);
}

/** Won auctions grouped by winner and seller; some groups are paid, the others stay pending. */
function planPayments(random: Random, auctions: PlannedAuction[], size: number): PlannedPayment[] {
  const groups = new Map<string, PlannedAuction[]>();
  for (const a of auctions) {
    const top = a.bids[a.bids.length - 1];
    if (a.kind !== 'ended' || !top || a.endTime === null || a.endTime > -6 * HOUR) continue;
    const key = `${top.bidderKey}|${a.sellerKey}`;
    groups.set(key, [...(groups.get(key) ?? []), a]);
  }
  const maxPayments = Math.max(2, Math.round(size / 20));
  const payments: PlannedPayment[] = [];
  for (const [key, won] of groups) {
    if (payments.length >= maxPayments) break;
    // The first group is always paid and about 40 % of the rest, so 'Pagadas' and 'Pendientes' both fill.
    if (payments.length > 0 && !random.chance(0.4)) continue;
    const [winnerKey = '', sellerKey = ''] = key.split('|');
    const first = won[0] as PlannedAuction;
    const lastClose = Math.max(...won.map((a) => a.endTime ?? 0));
    const shipping = shippingFor(first.envio, won.length);
    const r = random.next();
    payments.push({
      winnerKey,
      sellerKey,
      companyId: first.companyId,
      auctionIndexes: won.map((a) => a.index),
      shippingCarrier: shipping.carrier,
      shippingCost: shipping.cost,
      paidAt: Math.round(Math.min(lastClose + random.between(2 * HOUR, 40 * HOUR), -30 * MINUTE)),
      payoutStatus: r < 0.6 ? 'none' : r < 0.85 ? 'requested' : 'paid_out',
    });
  }
  return payments;
}

export function planDemo(opts: { size?: number; seed?: number } = {}): DemoPlan {
  const size = opts.size ?? DEFAULT_SIZE;
  const random = createRandom(opts.seed ?? DEMO_SEED);
  const kinds = allocateKinds(random, size);
  const categoryOrder = random.shuffle(CATALOG);
  const used = new Map<string, number>();
  const itemOrder = new Map(CATALOG.map((c) => [c.key, random.shuffle(c.items)]));
  const auctions: PlannedAuction[] = [];
  for (let index = 0; index < size; index++) {
    const category = categoryOrder[index % categoryOrder.length] as DemoCategory;
    const items = itemOrder.get(category.key) as DemoItem[];
    const n = used.get(category.key) ?? 0;
    used.set(category.key, n + 1);
    const item = items[n % items.length] as DemoItem;
    const name = item.names[Math.floor(n / items.length) % item.names.length] as string;
    const seller = random.pick(SELLERS);
    const company = COMPANIES.find((c) => c.companyId === seller.companyId) ?? COMPANIES[0];
    if (!company) throw new Error('no company');
    const condicion = random.pick(item.conditions ?? USED);
    const value = random.between(item.value[0], item.value[1]) * CONDITION_FACTOR[condicion];
    const startingPrice = roundPrice(value * random.between(0.6, 0.9));
    let buyNowPrice = random.chance(0.35) ? roundPrice(value * random.between(1.15, 1.4)) : null;
    if (buyNowPrice !== null && buyNowPrice <= startingPrice) buyNowPrice = roundPrice(startingPrice * 1.5);
    const kind = kinds[index] as AuctionKind;
    const { createdAt, endTime } = schedule(random, kind);
    const envio = pickEnvio(random, { bulky: item.bulky ?? false, value, city: company.city });
    const hasBids = kind === 'active' ? random.chance(0.65) : kind === 'ended' ? random.chance(0.8) : false;
    const bidsUntil = Math.min(endTime ?? 0, -1 * MINUTE);
    auctions.push({
      index,
      sellerKey: seller.key,
      companyId: company.companyId,
      category,
      name,
      description: describe(random, { details: item.details, condicion, envio }),
      marca: item.marca,
      envio,
      condicion,
      startingPrice,
      buyNowPrice,
      kind,
      createdAt: Math.round(createdAt),
      endTime: endTime === null ? null : Math.round(endTime),
      images: planImages(random, { name, marca: item.marca, condicion, envio, categoryName: category.name }),
      bids: hasBids ? planBids(random, { value, startingPrice, buyNowPrice, from: createdAt + (bidsUntil - createdAt) * 0.05, to: bidsUntil }) : [],
    });
  }
  return { auctions, payments: planPayments(random, auctions, size) };
}
