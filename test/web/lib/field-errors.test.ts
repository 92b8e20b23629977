import { describe, expect, it } from 'vitest';
import { fieldErrors, serverFieldErrors, topLevelField } from '../../../src/web/lib/field-errors';

type Field = 'name' | 'price';
const isField = (name: string): name is Field => name === 'name' || name === 'price';

describe("a form's field errors", () => {
  it("keeps the first issue of each field the form shows, by the issue's top-level name", () => {
    const issues = [
      { path: ['price'], message: 'priceRequired' },
      { path: ['price'], message: 'priceTooLow' },
      { path: ['images', 0], message: 'imageInvalid' },
      { path: ['name'], message: 'nameRequired' },
    ];
    expect(fieldErrors(issues, topLevelField(isField), (message) => message)).toEqual({ price: 'priceRequired', name: 'nameRequired' });
  });

  it("puts a refused save's messages under the form's inputs and keeps the others apart", () => {
    const split = serverFieldErrors({ name: 'El nombre es obligatorio', categoryId: 'La categoría no existe' }, isField);
    expect(split).toEqual({ fields: { name: 'El nombre es obligatorio' }, others: ['La categoría no existe'] });
  });

  it('finds nothing to show when the server named no field', () => {
    expect(serverFieldErrors({}, isField)).toEqual({ fields: {}, others: [] });
  });
});
