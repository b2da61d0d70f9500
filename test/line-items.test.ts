import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminApi, adminApi, guestAddress, placeGuestOrder } from './fixtures.js';
import { bearer, buildMediaTestApp, json, type SignedIn, signInAdmin, type TestApp } from './helpers.js';

// What a cart's and an order's lines show of the variant sold (docs/catalog.md#lines): its option values and its
// image (the variant's own first, else the product's first), kept on the order line as sold.

const admin = '/product/dashboard/api';

let t: TestApp;
let api: AdminApi;
let adminUser: SignedIn;

beforeAll(async () => {
  t = await buildMediaTestApp('line-items-test-');
  adminUser = await signInAdmin(t);
  api = adminApi(t, adminUser);
});
afterAll(async () => {
  await t?.close();
});

let counter = 0;
const unique = (text: string) => `${text}-${++counter}`;

const upload = async (productId: number, input: { alt: string; colour: string; variantIds?: number[] }) => {
  const body = await sharp({ create: { width: 400, height: 300, channels: 3, background: input.colour } })
    .jpeg()
    .toBuffer();
  const variants = input.variantIds ? `&variant_ids=${input.variantIds.join(',')}` : '';
  const res = await t.app.inject({
    method: 'POST',
    url: `${admin}/products/${productId}/media/?alt=${encodeURIComponent(input.alt)}${variants}`,
    headers: { ...bearer(adminUser.access), 'content-type': 'image/jpeg' },
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return json(res) as { id: number; key: string; url: string };
};

interface Variant {
  id: number;
  alias: string;
  name: string;
}

/** A tee in Size × Colour (S, M × Black, White), a product image, and one image of its own for "M / Black". */
async function tee() {
  const product = await api.product({ name: unique('Tee'), variants: [{ name: 'Tee', price: '20.00', stock: 5 }] });
  const options = [
    { name: 'Size', values: ['S', 'M'] },
    { name: 'Colour', values: ['Black', 'White'] },
  ];
  const set = await t.app.inject({
    method: 'PUT',
    url: `${admin}/products/${product.id}/options/`,
    headers: bearer(adminUser.access),
    payload: { options },
  });
  expect(set.statusCode, set.body).toBe(200);
  const made = await t.app.inject({
    method: 'POST',
    url: `${admin}/products/${product.id}/variants/generate/`,
    headers: bearer(adminUser.access),
    payload: { price: '20.00', stock: 5 },
  });
  expect(made.statusCode, made.body).toBe(200);
  const variants = (json(made) as { variants: Variant[] }).variants;
  const byName = (name: string) => variants.find((v) => v.name === name) as Variant;
  const productImage = await upload(product.id, { alt: 'The tee folded', colour: '#333' });
  const mBlack = byName('M / Black');
  const ownImage = await upload(product.id, { alt: 'The black tee worn', colour: '#000', variantIds: [mBlack.id] });
  return { product, mBlack, sWhite: byName('S / White'), productImage, ownImage };
}

const thumbnail = (image: { key: string }, alt: string) => ({
  url: expect.stringContaining(`/media/${image.key}/`),
  alt,
  width: 400,
  height: 300,
  srcset: expect.stringContaining(`/media/${image.key}/160.webp 160w`),
  srcset_avif: expect.stringContaining(`/media/${image.key}/160.avif 160w`),
});

describe("a cart's lines", () => {
  it("show the variant's option values and its own image, else the product's", async () => {
    const { mBlack, sWhite, productImage, ownImage } = await tee();
    const first = await t.app.inject({
      method: 'POST',
      url: '/cart/storefront/api/carts/add/',
      payload: { product_variant_id: mBlack.id, quantity: 1 },
    });
    const token = first.headers['x-cart-token'] as string;
    const res = await t.app.inject({
      method: 'POST',
      url: '/cart/storefront/api/carts/add/',
      headers: { 'x-cart-token': token },
      payload: { product_variant_id: sWhite.id, quantity: 2 },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res).items).toEqual([
      expect.objectContaining({
        product_variant_id: mBlack.id,
        options: [
          { name: 'Size', value: 'M' },
          { name: 'Colour', value: 'Black' },
        ],
        image: thumbnail(ownImage, 'The black tee worn'),
      }),
      expect.objectContaining({
        product_variant_id: sWhite.id,
        options: [
          { name: 'Size', value: 'S' },
          { name: 'Colour', value: 'White' },
        ],
        image: thumbnail(productImage, 'The tee folded'),
      }),
    ]);
  });

  it('show no options for a product without its own (the stand-in "Title") and no image when it has none', async () => {
    const mug = await api.product({ name: unique('Mug'), variants: [{ name: 'Mug', price: '9.00', stock: 3 }] });
    const res = await t.app.inject({
      method: 'POST',
      url: '/cart/storefront/api/carts/add/',
      payload: { product_variant_id: (mug.variants[0] as Variant).id, quantity: 1 },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res).items[0]).toMatchObject({ options: [], image: null });
  });
});

describe("an order's lines", () => {
  it('keep the option values and image they were sold with, on the placement answer and the order pages', async () => {
    const { mBlack, ownImage } = await tee();
    const order = await placeGuestOrder(t, {
      variants: [{ alias: mBlack.alias, quantity: 1 }],
      shipping_address: guestAddress,
    });
    const sold = {
      options: [
        { name: 'Size', value: 'M' },
        { name: 'Colour', value: 'Black' },
      ],
      image: thumbnail(ownImage, 'The black tee worn'),
    };
    expect((order.lines as object[])[0]).toMatchObject(sold);

    // The image is taken off the product afterwards: the order still shows what was sold.
    const del = await t.app.inject({
      method: 'DELETE',
      url: `${admin}/media/${ownImage.id}/`,
      headers: bearer(adminUser.access),
    });
    expect(del.statusCode, del.body).toBeLessThan(300);
    const shop = await t.app.inject({
      method: 'GET',
      url: `/order/storefront/api/orders/${order.order_alias}/`,
      headers: { 'x-order-token': order.order_token },
    });
    expect(shop.statusCode, shop.body).toBe(200);
    expect(json(shop).lines[0]).toMatchObject(sold);
    const dashboard = await api.get(`/order/dashboard/api/orders/${order.order_alias}/`);
    expect(dashboard.lines[0]).toMatchObject(sold);
  });

  it('added by an edit keep the option values and image of the variant added', async () => {
    const { mBlack, sWhite, productImage } = await tee();
    const order = await placeGuestOrder(t, {
      variants: [{ alias: mBlack.alias, quantity: 1 }],
      shipping_address: guestAddress,
    });
    const res = await t.app.inject({
      method: 'POST',
      url: `/order/dashboard/api/orders/${order.order_alias}/edits/`,
      headers: bearer(adminUser.access),
      payload: {
        lines: [
          { alias: mBlack.alias, quantity: 1 },
          { alias: sWhite.alias, quantity: 1 },
        ],
        note: 'One white tee more',
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const after = await api.get(`/order/dashboard/api/orders/${order.order_alias}/`);
    const added = (after.lines as { alias: string }[]).find((l) => l.alias === sWhite.alias);
    expect(added).toMatchObject({
      options: [
        { name: 'Size', value: 'S' },
        { name: 'Colour', value: 'White' },
      ],
      image: thumbnail(productImage, 'The tee folded'),
    });
  });
});
