// Product images (issue #29 item 8): a served size that was made before, as a browser asks for a product's picture.
import sharp from 'sharp';
import { adminHeaders } from './domain-scenarios.js';
import { BenchError } from './lib/errors.js';
import type { Scenario } from './scenarios.js';

export const mediaScenarios: Scenario[] = [
  {
    // One image, 640 px wide in WebP, already made (the first request makes and keeps it): what every visit after the
    // first reads. Floor: 0.3 × the bare baseline.
    name: 'media-cached',
    method: 'GET',
    path: '/healthz',
    async setup(ctx) {
      const key = await ctx.memo('media-image', async () => {
        const headers = await adminHeaders(ctx);
        const product = (await ctx.call('POST', '/product/dashboard/api/products/', {
          body: { name: 'Pictured bench product', variants: [{ name: 'One', price: '9.99', stock: 10 }] },
          headers,
          expect: 201,
        })) as { id: number };
        const photo = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#7a4' } })
          .jpeg()
          .toBuffer();
        const res = await fetch(`${ctx.baseUrl}/product/dashboard/api/products/${product.id}/media/?alt=Bench`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'image/jpeg' },
          body: photo,
        });
        if (res.status !== 201) throw new BenchError(`image upload answered ${res.status}: ${await res.text()}`);
        return ((await res.json()) as { key: string }).key;
      });
      const path = `/media/${key}/640.webp`;
      // Made once before the load: the run measures the kept size, not the resize.
      const first = await fetch(`${ctx.baseUrl}${path}`);
      if (first.status !== 200) throw new BenchError(`GET ${path} answered ${first.status}`);
      await first.arrayBuffer();
      return { path };
    },
  },
];
