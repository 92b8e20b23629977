import { describe, expect, it } from 'vitest';
import { buyerPaymentState, downsampleViewers } from '../../../../../src/domain/show-summary.js';
import { buyersCsv, csvCell, csvFilename, toCsv } from '../../../../../src/server/features/payments/show-summary/csv.js';

/** The CSV of a show's buyers, cell by cell, and the summary's pure rules. */

describe('a CSV cell', () => {
  it('leaves plain text and numbers as they are', () => {
    expect(csvCell('Juana Pérez')).toBe('Juana Pérez');
    expect(csvCell(1200)).toBe('1200');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });

  it('quotes commas, quotes and line breaks, doubling the quotes', () => {
    expect(csvCell('Reloj, Casio')).toBe('"Reloj, Casio"');
    expect(csvCell('El "bueno"')).toBe('"El ""bueno"""');
    expect(csvCell('línea\nnueva')).toBe('"línea\nnueva"');
  });

  it('turns what a spreadsheet would run as a formula into text', () => {
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('+523312345678')).toBe("'+523312345678");
    expect(csvCell('-5')).toBe("'-5");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\t=1')).toBe("'\t=1");
    expect(csvCell('=HYPERLINK("a","b")')).toBe('"\'=HYPERLINK(""a"",""b"")"');
    // A number stays a number: only text can carry a formula.
    expect(csvCell(-5)).toBe('-5');
  });
});

describe('the CSV file', () => {
  it('starts with a byte-order mark and ends each line with CRLF', () => {
    expect(
      toCsv([
        ['a', 'b'],
        ['ñ', 1],
      ]),
    ).toBe('\uFEFFa,b\r\nñ,1\r\n');
  });

  it('lists each buyer with their lots, total and payment state', () => {
    const csv = buyersCsv(
      {
        buyers: [
          {
            buyerId: 'u1',
            name: 'Juana Pérez',
            whatsapp: '+523312345678',
            lots: [
              { auctionId: 'a1', name: 'Reloj', amount: 1200, paymentState: 'paid' },
              { auctionId: 'a2', name: 'Lámpara', amount: 800, paymentState: 'unbilled' },
            ],
            total: 2000,
            paymentState: 'unbilled',
          },
        ],
      },
      {
        headers: { buyer: 'Comprador', whatsapp: 'WhatsApp', lots: 'Lotes', total: 'Total', payment: 'Pago' },
        states: { expired: 'Vencido', unbilled: 'Sin cobrar', draft: 'Borrador', linkSent: 'Enlace enviado', paid: 'Pagado' },
      },
    );
    const [header, line] = csv.slice(1).split('\r\n');
    expect(header).toBe('Comprador,WhatsApp,Lotes,Total,Pago');
    expect(line).toBe(`Juana Pérez,'+523312345678,"Reloj ($1,200 MXN); Lámpara ($800 MXN)",2000,Sin cobrar`);
  });

  it('is named for the show’s title and its day in Mexico City', () => {
    // 02:00 UTC on the 5th is still the 4th in Mexico City.
    expect(csvFilename('Relojes del Viernes ¡Ofertas!', new Date(Date.UTC(2030, 0, 5, 2)))).toBe('resumen-relojes-del-viernes-ofertas-2030-01-04.csv');
    expect(csvFilename('¡¡!!', new Date(Date.UTC(2030, 0, 5, 20)))).toBe('resumen-show-2030-01-05.csv');
  });
});

describe('the summary’s rules', () => {
  it('gives a buyer the state of their lots that most needs the seller', () => {
    expect(buyerPaymentState(['paid', 'paid'])).toBe('paid');
    expect(buyerPaymentState(['paid', 'linkSent'])).toBe('linkSent');
    expect(buyerPaymentState(['draft', 'unbilled'])).toBe('unbilled');
    expect(buyerPaymentState(['paid', 'expired', 'unbilled'])).toBe('expired');
    expect(buyerPaymentState([])).toBe('unbilled');
  });

  it('merges a long show’s viewer samples into at most so many points, keeping each bucket’s peak', () => {
    const points = Array.from({ length: 10 }, (_, i) => ({ at: i * 5000, viewers: i % 3 }));
    expect(downsampleViewers(points, 20)).toEqual(points);
    const merged = downsampleViewers(points, 5);
    expect(merged).toHaveLength(5);
    expect(merged[0]).toEqual({ at: 0, viewers: 1 });
    expect(merged[1]).toEqual({ at: 10_000, viewers: 2 });
  });
});
