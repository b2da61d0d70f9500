import { describe, expect, it } from 'vitest';
import { orderLineRow, orderRowIn } from '../orders/order-rows.testing.js';
import { renderOrderPage } from './order-page.js';

// The service's own order page (the email's link): its lines, named as the shop names them.

describe('the order page', () => {
  const tee = {
    ...orderLineRow,
    alias: 'tee',
    productName: 'Tee',
    variantName: 'M / Black',
    sku: 'TEE-M',
    options: [
      { name: 'Size', value: 'M' },
      { name: 'Colour', value: 'Black' },
    ],
  };

  it('names a line by its product and option values, the variant only where it says more', () => {
    const page = renderOrderPage({
      order: orderRowIn('USD'),
      lines: [tee, { ...tee, alias: 'limited', variantName: 'Limited / M', sku: null }],
    });
    expect(page).toContain(
      '<td>Tee<br><span class="note">Size: M · Colour: Black</span><br><span class="note">SKU TEE-M</span></td>',
    );
    expect(page).toContain('<td>Tee - Limited / M<br><span class="note">Size: M · Colour: Black</span></td>');
    expect(page).not.toContain('M / Black');
  });

  it('shows a line without options by its name alone, every value escaped', () => {
    const page = renderOrderPage({ order: orderRowIn('USD'), lines: [orderLineRow] });
    expect(page).toContain('<td>Sencha &lt;50g&gt;</td>');
  });
});
