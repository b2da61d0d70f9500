import { describe, expect, it } from 'vitest';
import { orderRowIn as orderIn, orderLineRow as line } from '../orders/order-rows.testing.js';
import type { OrderLineRow, OrderRow } from '../orders/orders.repository.js';
import { type OrderEmailKind, orderEmailKinds, type ReturnedItems, renderOrderEmail } from './order-email.templates.js';

const link = { url: 'https://shop.example/order/storefront/orders/a1b2/?token=x.y.z&a=1', days: 7 };

describe('order emails', () => {
  it('writes yen without decimals, tax as included when prices include it, and no shipping line when none', () => {
    const email = renderOrderEmail({
      kind: 'order_confirmation',
      storeName: 'Ocha',
      order: orderIn('JPY'),
      lines: [line],
      link,
    });
    expect(email.subject).toBe('Ocha: Order a1b2 received');
    expect(email.text).toContain('2 × Sencha <50g> (¥1,235 each): ¥2,470');
    expect(email.text).toContain(
      'Subtotal: ¥2,470\nDiscount (Promo code AKI10 (10%)): -¥247\nTax (included): ¥202\nTotal: ¥2,223',
    );
    expect(email.text).not.toContain('Shipping (');
    expect(email.html).toContain('<strong>¥2,223</strong>');
  });

  it('names each line "Product - Variant" as it was sold, with its SKU', () => {
    const shirt: OrderLineRow = {
      ...line,
      productName: 'Organic Cotton T-Shirt',
      variantName: 'Small',
      sku: 'TSHIRT-S',
      quantity: 1,
      unitPrice: 2500,
      subtotal: 2500,
    };
    const email = renderOrderEmail({
      kind: 'order_confirmation',
      storeName: 'S',
      order: orderIn('USD'),
      lines: [shirt],
      link,
    });
    expect(email.text).toContain('1 × Organic Cotton T-Shirt - Small (SKU TSHIRT-S) ($25.00 each): $25.00');
    expect(email.html).toContain('Organic Cotton T-Shirt - Small<br><span');
    expect(email.html).toContain('SKU TSHIRT-S</span>');
  });

  it("shows each line's option values and its image as sold, by an absolute URL with its box and alt text", () => {
    const key = 'ab'.repeat(32);
    const tee: OrderLineRow = {
      ...line,
      productName: 'Tee',
      variantName: 'M / Black',
      options: [
        { name: 'Size', value: 'M' },
        { name: 'Colour', value: 'Black' },
      ],
      image: { key, alt: 'The "black" tee <worn>', width: 400, height: 300 },
    };
    const email = renderOrderEmail({
      kind: 'order_confirmation',
      storeName: 'S',
      order: orderIn('USD'),
      lines: [tee, { ...line, alias: 'plain' }, { ...tee, alias: 'limited', variantName: 'Limited / M', image: null }],
      link,
      publicBaseUrl: 'https://shop.example',
    });
    // "M / Black" says no more than its option values: the line is named as the shop names it.
    expect(email.text).toContain('2 × Tee (Size: M, Colour: Black) ($12.35 each): $24.70');
    // A variant name that says more keeps its place.
    expect(email.text).toContain('2 × Tee - Limited / M (Size: M, Colour: Black)');
    expect(email.html).toContain(
      `<img src="https://shop.example/media/${key}/160.jpg" alt="The &quot;black&quot; tee &lt;worn&gt;" `
        + 'width="64" height="48"',
    );
    expect(email.html).toContain('Size: M, Colour: Black</span>');
    // A line sold without an image shows none.
    expect(email.html.match(/<img /g)).toHaveLength(1);
  });

  it('escapes every value of the HTML part, the link included', () => {
    const email = renderOrderEmail({
      kind: 'order_shipped',
      storeName: 'O"cha & <Co>',
      order: orderIn('JPY'),
      lines: [line],
      link,
    });
    expect(email.html).toContain('Kei &lt;/p&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(email.html).toContain('Sencha &lt;50g&gt;');
    expect(email.html).toContain('O&quot;cha &amp; &lt;Co&gt;');
    expect(email.html).toContain('href="https://shop.example/order/storefront/orders/a1b2/?token=x.y.z&amp;a=1"');
    expect(email.html).not.toMatch(/<img|<50g>|<Co>/);
  });

  it('lists each shipment that went out with its tracking link, and says when only part has shipped', () => {
    const shipments = [
      {
        carrier: 'UPS',
        trackingNumber: '1Z<9>',
        trackingUrl: 'https://ups.example/t?n=1Z%3C9%3E&x=1',
        lines: [{ name: 'Sencha <50g>', quantity: 1 }],
      },
      { carrier: null, trackingNumber: null, trackingUrl: null, lines: [{ name: 'Sencha <50g>', quantity: 1 }] },
    ];
    const render = (fulfillmentStatus: OrderRow['fulfillmentStatus']) =>
      renderOrderEmail({
        kind: 'order_shipped',
        storeName: 'Ocha',
        order: orderIn('JPY', { fulfillmentStatus }),
        lines: [line],
        link,
        shipments,
      });
    const part = render('partially_shipped');
    expect(part.text).toContain('Part of your order a1b2 has shipped; we will let you know when the rest does.');
    expect(part.text).toContain(
      'Shipment: UPS 1Z<9>\n1 × Sencha <50g>\nTrack it: https://ups.example/t?n=1Z%3C9%3E&x=1',
    );
    expect(part.text).toContain('Shipment: no tracking number\n1 × Sencha <50g>\n\n');
    expect(part.html).toContain('Shipment: UPS 1Z&lt;9&gt;');
    expect(part.html).toContain('<a href="https://ups.example/t?n=1Z%3C9%3E&amp;x=1"');
    expect(render('shipped').text).toContain('Your order a1b2 has shipped.');
    // Only the shipped email lists shipments.
    const confirmation = renderOrderEmail({
      kind: 'order_confirmation',
      storeName: 'O',
      order: orderIn('JPY'),
      lines: [line],
      shipments,
    });
    expect(confirmation.text).not.toContain('Shipment:');
  });

  it('keeps an address line with a line break on one line of the text part', () => {
    const email = renderOrderEmail({
      kind: 'order_confirmation',
      storeName: 'Ocha',
      order: orderIn('JPY'),
      lines: [line],
      link,
    });
    expect(email.text).toContain('\n1-2-3 Ginza line two\n104-0061 Tokyo\nJapan\n');
  });

  it('names the discount by its code when pricing gave it no name', () => {
    const order = orderIn('USD', { discountName: null, subtotal: 1000, discount: 100, total: 900, estimatedTax: 0 });
    const email = renderOrderEmail({ kind: 'payment_received', storeName: 'S', order, lines: [], link });
    expect(email.text).toContain('Discount (code AKI10): -$1.00');
    expect(email.text).toContain('payment of $9.00');
  });

  it('says a cancelled order was refunded when it was', () => {
    const refunded = orderIn('USD', { status: 'cancelled', paymentStatus: 'refunded' });
    const text = (kind: 'order_cancelled' | 'order_expired', order: OrderRow) =>
      renderOrderEmail({ kind, storeName: 'S', order, lines: [line], link }).text;
    expect(text('order_cancelled', refunded)).toContain('has been cancelled. Your payment has been refunded.');
    expect(text('order_cancelled', orderIn('USD'))).not.toContain('refunded');
    expect(text('order_expired', orderIn('USD'))).toContain('not paid in time');
  });

  it('tells the customer of a changed order what is still to pay, or what comes back, with the order link', () => {
    const text = (order: OrderRow) =>
      renderOrderEmail({ kind: 'order_changed', storeName: 'S', order, lines: [line], link });
    // Total $22.23, $15.00 captured: $7.23 to pay.
    const due = text(orderIn('USD', { status: 'approved', amountCaptured: 1500 }));
    expect(due.subject).toBe('S: Order a1b2 changed');
    expect(due.text).toContain('its total is now $22.23. $7.23 is still to pay');
    expect(due.text).toContain(link.url);
    // 30.00 captured: 7.77 owed back.
    const back = text(orderIn('USD', { status: 'approved', amountCaptured: 3000 })).text;
    expect(back).toContain('We will refund you $7.77.');
    expect(text(orderIn('USD', { status: 'approved', amountCaptured: 2223 })).text).not.toMatch(/still to pay|refund/);
  });

  it('writes euros with the euro sign and two decimals, never the dollar’s', () => {
    const email = renderOrderEmail({ kind: 'payment_received', storeName: 'S', order: orderIn('EUR'), lines: [line] });
    expect(email.text).toContain('We have received your payment of €22.23');
    expect(email.text).toContain('Total: €22.23');
    expect(email.html).toContain('<strong>€22.23</strong>');
    expect(`${email.text}${email.html}`).not.toMatch(/\$|USD|EUR/);
  });

  it("writes every amount of a KWD order with its three decimals, whatever the store's own currency", () => {
    // The template knows only the order: an order in a market's currency is written in it, never in the store's.
    const kwd = orderIn('KWD', {
      status: 'approved',
      subtotal: 7690,
      discount: 0,
      discountName: null,
      promoCode: null,
      promotions: [],
      estimatedTax: 0,
      shippingName: 'Courier',
      shippingFee: 1250,
      total: 8940,
      amountCaptured: 8000,
    });
    const kwdLine = { ...line, quantity: 1, unitPrice: 7690, subtotal: 7690, discount: 0, adjustments: [], tax: 0 };
    const render = (kind: OrderEmailKind, returned?: ReturnedItems) =>
      renderOrderEmail({ kind, storeName: 'Souq', order: kwd, lines: [{ ...kwdLine, total: 7690 }], link, returned });
    const paid = render('payment_received').text;
    expect(paid).toContain('We have received your payment of KWD\u00a08.940');
    expect(paid).toContain('1 × Sencha <50g> (KWD\u00a07.690 each): KWD\u00a07.690');
    expect(paid).toContain(
      'Subtotal: KWD\u00a07.690\nShipping (Courier): KWD\u00a01.250\n'
        + 'Tax (included): KWD\u00a00.000\nTotal: KWD\u00a08.940',
    );
    expect(render('order_changed').text).toContain('its total is now KWD\u00a08.940. KWD\u00a00.940 is still to pay');
    const refund = { id: 3, lines: [{ name: 'Sencha <50g>', quantity: 1 }], amount: '7.690', rejectReason: null };
    expect(render('return_refunded', refund).text).toContain('We have refunded KWD\u00a07.690');
    expect(`${paid}${render('payment_received').html}`).not.toMatch(/USD|JPY|\b8\.94\b/);
  });

  it('tells how to send a requested return back, as the store gives it, only in the return-requested email', () => {
    const returned = { id: 7, lines: [{ name: 'Sencha <50g>', quantity: 1 }], amount: null, rejectReason: null };
    const instructions = 'Send it to Ocha Returns, 1-2 Kanda, Tokyo 101-0021 & put <this> note inside.';
    const render = (kind: OrderEmailKind, returnInstructions: string | null) =>
      renderOrderEmail({ kind, storeName: 'Ocha', order: orderIn('JPY'), lines: [line], returned, returnInstructions });
    const requested = render('return_requested', instructions);
    expect(requested.text).toContain(`Items returned\n1 × Sencha <50g>\n\nHow to send them back\n${instructions}\n`);
    expect(requested.html).toContain('How to send them back</h2>');
    expect(requested.html).toContain('1-2 Kanda, Tokyo 101-0021 &amp; put &lt;this&gt; note inside.');
    expect(render('return_requested', null).text).not.toContain('How to send them back');
    expect(render('return_received', instructions).text).not.toContain(instructions);
  });

  it('gives every kind its own subject and heading', () => {
    const rendered = orderEmailKinds.map((kind) =>
      renderOrderEmail({ kind, storeName: 'S', order: orderIn('USD'), lines: [line], link }),
    );
    expect(new Set(rendered.map((r) => r.subject)).size).toBe(orderEmailKinds.length);
    expect(new Set(rendered.map((r) => r.text.split('\n')[0])).size).toBe(orderEmailKinds.length);
  });
});
